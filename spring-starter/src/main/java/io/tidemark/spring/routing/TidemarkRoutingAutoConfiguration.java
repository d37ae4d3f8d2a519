package io.tidemark.spring.routing;

import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.scope.ScopeStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Routes reads: advises the beans whose methods are {@code @ReadYourWrites} or
 * {@code @ScopedWrites} (and, with {@code tidemark.read.automatic}, every read-only unit of work)
 * so that their reads run on a replica that has the token, through the reader of Tidemark's core
 * configuration.
 */
@AutoConfiguration(afterName = "io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration")
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@ConditionalOnBean(ConsistentReader.class)
public final class TidemarkRoutingAutoConfiguration {

  static final String ADVICE_ORDER = "tidemark.advice-order";
  static final String AUTOMATIC = "tidemark.read.automatic";

  @Bean
  static ReadYourWritesBeanPostProcessor readYourWritesPostProcessor(
      ObjectProvider<ConsistentReader> reader,
      ObjectProvider<ScopeStore> store,
      ConfigurableListableBeanFactory beans,
      Environment environment) {
    ReadYourWritesBeanPostProcessor advising =
        new ReadYourWritesBeanPostProcessor(reader, store, beans);
    advising.setAdviceOrder(environment.getProperty(ADVICE_ORDER, Integer.class));
    advising.setAutomatic(environment.getProperty(AUTOMATIC, Boolean.class, false));
    return advising;
  }
}
