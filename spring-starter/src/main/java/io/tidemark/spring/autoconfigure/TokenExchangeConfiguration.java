package io.tidemark.spring.autoconfigure;

import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import java.sql.SQLException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The one {@link TokenExchange} of the application, for the filter and the HTTP clients alike;
 * without a reader (an application that only forwards tokens) nothing can be covered and a dirty
 * context gets a marker. Imported by the web, client and messaging auto-configurations alike.
 */
@Configuration(proxyBeanMethods = false)
public final class TokenExchangeConfiguration {

  /** The property that names the HTTP header, in {@code TidemarkWebProperties}. */
  static final String WEB_HEADER = "tidemark.web.header";

  TokenExchangeConfiguration() {}

  /**
   * The header as {@code tidemark.cluster} and {@code tidemark.web.header} say, covering with the
   * source as the application's {@link ConsistentReader} reads it, within {@code
   * tidemark.token.cover-timeout}. The header's name is read from the environment: its settings
   * group is the web configuration's, which the messaging configuration does not need.
   */
  @Bean
  @ConditionalOnMissingBean
  TokenExchange tidemarkTokenExchange(
      TokenCodec tidemarkTokenCodec,
      TidemarkProperties properties,
      Environment environment,
      ObjectProvider<ConsistentReader> readers) {
    return new TokenExchange(
        tidemarkTokenCodec,
        properties.getCluster(),
        environment.getProperty(WEB_HEADER, TokenExchange.DEFAULT_HEADER),
        properties.getToken().getCoverTimeout(),
        timeout -> {
          ConsistentReader reader = readers.getIfAvailable();
          if (reader == null) {
            throw new SQLException("this application has no Tidemark reader to ask the source");
          }
          return reader.sourceExecuted(timeout);
        });
  }
}
