package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The pools Tidemark keeps for the replicas, with nothing listening on the nodes' ports. */
class TidemarkNodePoolsTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  DataSourceAutoConfiguration.class, TidemarkAutoConfiguration.class))
          .withPropertyValues(UnreachableNodes.PROPERTIES);

  @Test
  void aReplicasPoolGivesUpOnAnUnreachableNodeAfterTheConnectionTimeout() {
    runner
        .withPropertyValues("tidemark.topology.connection-timeout=400ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              var pool = context.getBean(TidemarkNodes.class).pools().get("replica-1");
              long started = System.nanoTime();

              assertThatThrownBy(pool::getConnection)
                  .isInstanceOf(SQLTransientConnectionException.class)
                  .hasMessageContaining("timed out after");
              // Hikari's own default would have held this write for 30 s.
              assertThat(Duration.ofNanos(System.nanoTime() - started))
                  .isLessThan(Duration.ofSeconds(5));
            });
  }

  @Test
  void aConnectionTimeoutNoPoolCanKeepFailsTheStartWithWhatToSet() {
    runner
        .withPropertyValues("tidemark.topology.connection-timeout=100ms")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(TidemarkStartupException.class)
                    .hasMessageContaining("tidemark.topology.connection-timeout is 100 ms"));
  }
}
