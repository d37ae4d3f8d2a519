package io.tidemark.spring.actuate;

import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.spring.autoconfigure.NodeRuntime;
import io.tidemark.spring.autoconfigure.ReplicaPoolCustomizer;
import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
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
    ReadMetrics tidemarkReadMetrics(MeterRegistry registry) {
      return new ReadMetrics(registry);
    }

    /**
     * Histograms for the read and wait timers, which the observations make, unless the application
     * configured their distribution itself (management.metrics.distribution.*).
     */
    @Bean
    @ConditionalOnMissingBean(name = "tidemarkReadTimerHistograms")
    MeterFilter tidemarkReadTimerHistograms() {
      return new MeterFilter() {
        @Override
        public DistributionStatisticConfig configure(
            Meter.Id id, DistributionStatisticConfig config) {
          boolean ours =
              id.getType() == Meter.Type.TIMER
                  && (id.getName().equals(DefaultReadObservationConvention.NAME)
                      || id.getName().equals(DefaultWaitObservationConvention.NAME));
          if (!ours || config.isPercentileHistogram() != null) {
            return config;
          }
          return DistributionStatisticConfig.builder()
              .percentilesHistogram(true)
              .minimumExpectedValue((double) Duration.ofMillis(1).toNanos())
              .maximumExpectedValue((double) Duration.ofSeconds(10).toNanos())
              .build()
              .merge(config);
        }
      };
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
    ReadObservation tidemarkReadObservation(
        ObservationRegistry registry,
        NodeRuntime nodes,
        ObjectProvider<ReadObservationConvention> readConvention,
        ObjectProvider<WaitObservationConvention> waitConvention) {
      return new ReadObservation(
          registry,
          new NodeNames(nodes.view()::nameOf),
          readConvention.getIfUnique(),
          waitConvention.getIfUnique());
    }
  }
}
