package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.routing.TidemarkRoutingAutoConfiguration;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.token.KeyRing;
import org.assertj.core.api.AbstractThrowableAssert;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.ApplicationContextAssertProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Context runners of Boot's DataSource auto-configuration, Tidemark's and the routing one. */
public final class TidemarkRunners {

  private TidemarkRunners() {}

  /**
   * Checks {@code context} failed to start with Tidemark's startup exception at the root of the
   * failure, and asserts on that exception.
   */
  public static AbstractThrowableAssert<?, ? extends Throwable> failedWithTidemarks(
      ApplicationContextAssertProvider<?> context) {
    return assertThat(context)
        .getFailure()
        .rootCause()
        .isInstanceOf(TidemarkStartupException.class);
  }

  /** The three auto-configurations, with no settings. */
  public static ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                TidemarkAutoConfiguration.class,
                TidemarkRoutingAutoConfiguration.class));
  }

  /**
   * The three on database {@code db} of {@code topology}'s source and replica, signing tokens with
   * a secret of {@code letter} repeated.
   */
  public static ApplicationContextRunner on(MySqlTopology topology, String db, String letter) {
    return runner()
        .withPropertyValues(
            "spring.datasource.url=" + topology.source().jdbcUrl(db),
            "spring.datasource.username=" + topology.source().user(),
            "spring.datasource.password=" + topology.source().password(),
            "tidemark.token.secret=" + letter.repeat(KeyRing.MIN_SECRET_LENGTH),
            "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db));
  }
}
