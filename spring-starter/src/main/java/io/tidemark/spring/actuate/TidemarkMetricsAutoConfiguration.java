package io.tidemark.spring.actuate;

import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.spring.autoconfigure.NodeRuntime;
import io.tidemark.spring.autoconfigure.ReplicaPoolCustomizer;
import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Micrometer meters and an {@code Observation} for Tidemark's reads and write capture, when the
 * application has a {@code MeterRegistry} or an {@code ObservationRegistry} (Spring Boot's metrics
 * and observation auto-configurations make them).
 */
@AutoConfiguration(
    after = TidemarkAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
    })
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(NodeRuntime.class)
public final class TidemarkMetricsAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  @ConditionalOnBean(MeterRegistry.class)
  static class Meters {

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkReadMetrics")
    ReadMetrics tidemarkReadMetrics(MeterRegistry registry, NodeRuntime nodes) {
      return new ReadMetrics(registry, new NodeNames(nodes.view()::snapshot));
    }

    /** The replica pools' {@code hikaricp.*} meters, as Boot gives the application's own pool. */
    @Bean
    @ConditionalOnMissingBean(name = "tidemarkReplicaPoolMetrics")
    ReplicaPoolCustomizer tidemarkReplicaPoolMetrics(MeterRegistry registry) {
      return (replica, pool) ->
          pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
    }

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkStateMetrics")
    NodeStateMetrics tidemarkStateMetrics(NodeRuntime nodes) {
      return new NodeStateMetrics(nodes.view()::snapshot, nodes.writes()::stats);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBean(ObservationRegistry.class)
  static class Observations {

    @Bean
    @ConditionalOnMissingBean(name = "tidemarkReadObservation")
    ReadObservation tidemarkReadObservation(ObservationRegistry registry, NodeRuntime nodes) {
      return new ReadObservation(registry, new NodeNames(nodes.view()::snapshot));
    }
  }
}
