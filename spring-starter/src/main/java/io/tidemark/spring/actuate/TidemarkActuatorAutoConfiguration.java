package io.tidemark.spring.actuate;

import io.tidemark.spring.autoconfigure.NodeRuntime;
import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.topology.ExecutionHistory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code tidemark} health contributor (when Spring Boot's health support is there and {@code
 * management.health.tidemark.enabled} is not false) and the {@code tidemark} actuator endpoint
 * (when actuator is there and the endpoint is exposed).
 */
@AutoConfiguration(after = TidemarkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@ConditionalOnBean(NodeRuntime.class)
public final class TidemarkActuatorAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
  @ConditionalOnEnabledHealthIndicator("tidemark")
  static class HealthConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkHealthIndicator")
    TidemarkHealthIndicator tidemarkHealthIndicator(
        NodeRuntime nodes, TidemarkProperties properties) {
      return new TidemarkHealthIndicator(
          nodes.view()::snapshot,
          properties.getTopology().getMaxLag(),
          properties.getRead().getPolicy());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
  static class EndpointConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    TidemarkEndpoint tidemarkEndpoint(NodeRuntime nodes, ExecutionHistory history) {
      return new TidemarkEndpoint(
          nodes.view()::snapshot,
          new NodeNames(nodes.view()::nameOf),
          history,
          nodes.writes()::stats);
    }
  }
}
