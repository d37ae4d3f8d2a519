package io.tidemark.spring.web;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tidemark's {@code TaskDecorator}, which Spring Boot 4 applies together with the application's
 * own. The build for Spring Boot 3.5, which applies only a decorator that is the one of its type or
 * the primary one, has its own version of this class.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(
    type = "org.springframework.core.task.support.ContextPropagatingTaskDecorator")
class TaskDecoratorConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "tidemarkTaskDecorator")
  ConsistencyTaskDecorator tidemarkTaskDecorator() {
    return new ConsistencyTaskDecorator();
  }
}
