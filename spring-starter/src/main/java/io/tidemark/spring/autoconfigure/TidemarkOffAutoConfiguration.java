package io.tidemark.spring.autoconfigure;

import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Says at start, in one line, that Tidemark is off and why: turned off, or no MySQL, MariaDB or
 * PostgreSQL {@code DataSource} (typically the H2 of the tests), so that {@code @ReadYourWrites}
 * methods, which then read without routing, never do so unseen.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@Conditional(SourceCondition.Unprotected.class)
public final class TidemarkOffAutoConfiguration {

  private static final Log log = LogFactory.getLog(TidemarkOffAutoConfiguration.class);

  /** Why Tidemark is off in this application. */
  record Off(String reason) {}

  @Bean
  Off tidemarkOff(ConfigurableListableBeanFactory beans, Environment environment) {
    String reason =
        Objects.requireNonNullElse(
            SourceCondition.whyOff(beans, environment, beans.getBeanClassLoader()),
            "the application has no MySQL, MariaDB or PostgreSQL DataSource");
    String line =
        "Tidemark is off: "
            + reason
            + ". Methods with @ReadYourWrites or @ScopedWrites run unrouted, and no consistency"
            + " token is read or written.";
    if (reason.equals(SourceCondition.DISABLED)) {
      log.info(line);
    } else {
      log.warn(line);
    }
    return new Off(reason);
  }
}
