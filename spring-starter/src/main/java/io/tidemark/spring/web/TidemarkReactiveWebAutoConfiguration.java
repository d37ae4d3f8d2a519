package io.tidemark.spring.web;

import io.tidemark.spring.autoconfigure.NodeRuntime;
import io.tidemark.spring.autoconfigure.TidemarkAutoConfiguration;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.spring.autoconfigure.TokenCarriers;
import io.tidemark.spring.autoconfigure.TokenExchangeConfiguration;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.server.WebFilter;

/**
 * The consistency header on the requests a reactive (WebFlux) application serves: a {@code
 * WebFilter} in order {@code tidemark.web.filter-order} that verifies the request's token, puts the
 * request's consistency context and deadline into its Reactor {@code Context}, writes the merged
 * token into the response before it is committed, and answers a refused read with 503 and a
 * rejected token with 400, as {@link TidemarkWebAutoConfiguration} does for servlet applications.
 *
 * <p>Replace the filter with a bean named {@code tidemarkConsistencyTokenFilter}.
 */
@AutoConfiguration(after = TidemarkAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "tidemark.web.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(WebFilter.class)
@ConditionalOnBean(TokenCodec.class)
@Import({TokenExchangeConfiguration.class, ConsistencyProblemsConfiguration.class})
@EnableConfigurationProperties({TidemarkProperties.class, TidemarkWebProperties.class})
public final class TidemarkReactiveWebAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "tidemarkConsistencyTokenFilter")
  ConsistencyTokenWebFilter tidemarkConsistencyTokenFilter(
      TokenExchange tidemarkTokenExchange,
      TokenCodec tidemarkTokenCodec,
      ConsistencyProblems tidemarkConsistencyProblems,
      TidemarkWebProperties web,
      ObjectProvider<NodeRuntime> nodes) {
    return new ConsistencyTokenWebFilter(
        TidemarkWebAutoConfiguration.requestTokens(
            tidemarkTokenExchange, tidemarkTokenCodec, web, nodes),
        tidemarkConsistencyProblems,
        web.getFilterOrder());
  }

  /** Where the tokens travel, for the start-up line. */
  @Bean
  TokenCarriers tidemarkTokenCarriers(TidemarkWebProperties web, TidemarkProperties properties) {
    return () -> web.carriers(properties.getCluster());
  }
}
