package io.tidemark.spring.web;

import io.tidemark.spring.autoconfigure.NodeRuntime;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one {@link ConsistencyProblems} of the application, for servlet and reactive servers. */
@Configuration(proxyBeanMethods = false)
class ConsistencyProblemsConfiguration {

  /** Retry-After from the replicas' lag as last probed, when this application reads replicas. */
  @Bean
  @ConditionalOnMissingBean
  ConsistencyProblems tidemarkConsistencyProblems(
      TidemarkWebProperties web, ObjectProvider<NodeRuntime> nodes) {
    return new ConsistencyProblems(
        new RetryAfter(
            () -> {
              NodeRuntime runtime = nodes.getIfAvailable();
              return runtime == null ? null : runtime.view().snapshot();
            },
            web.getRetryAfter(),
            web.getMaxRetryAfter()));
  }
}
