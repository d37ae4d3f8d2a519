package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Replicas from {@link ReplicaConnectionDetails} beans, as service connections make them: their
 * URLs and logins over {@code tidemark.replicas}, whose entry at the same index still names the
 * replica and sets its pool. The nodes do not answer.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReplicaConnectionDetailsTests {

  private final ApplicationContextRunner runner = UnreachableNodes.runner();

  @Test
  void aConnectionReplacesTheConfiguredUrlAndKeepsTheReplicasSettings() {
    runner
        .withPropertyValues(
            "tidemark.replicas[0].name=east",
            "tidemark.replicas[0].username=reader",
            "tidemark.replicas[0].password=reader-secret",
            "tidemark.replicas[0].hikari.connection-timeout=2500")
        .withBean("container", ReplicaConnectionDetails.class, () -> replica(7, null, null))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              HikariDataSource east = pool(context.getBean(NodeRuntime.class), "east");
              assertThat(east.getJdbcUrl()).isEqualTo("jdbc:mysql://127.0.0.1:7/shop");
              assertThat(east.getUsername()).isEqualTo("reader");
              assertThat(east.getPassword()).isEqualTo("reader-secret");
              assertThat(east.getConnectionTimeout()).isEqualTo(2500);
            });
  }

  @Test
  void eachConnectionIsAReplicaLoggingInAsItSaysElseAsTheSource() {
    runner
        .withBean("first", ReplicaConnectionDetails.class, () -> replica(7, "test", "test"))
        .withBean("second", ReplicaConnectionDetails.class, () -> replica(8, null, null))
        .run(
            context -> {
              NodeRuntime nodes = context.getBean(NodeRuntime.class);
              assertThat(nodes.pools()).containsOnlyKeys("source", "replica-1", "replica-2");
              HikariDataSource first = pool(nodes, "replica-1");
              HikariDataSource second = pool(nodes, "replica-2");
              assertThat(first.getJdbcUrl()).isEqualTo("jdbc:mysql://127.0.0.1:7/shop");
              assertThat(first.getUsername()).isEqualTo("test");
              assertThat(second.getJdbcUrl()).isEqualTo("jdbc:mysql://127.0.0.1:8/shop");
              assertThat(second.getUsername()).isEqualTo("app");
              assertThat(second.getPassword()).isEqualTo("secret");
            });
  }

  @Test
  void configuredReplicasBeyondTheConnectionsAreLeftOutLoudly(CapturedOutput output) {
    runner
        .withPropertyValues("tidemark.replicas[1].url=jdbc:mysql://127.0.0.1:3/shop")
        .withBean("container", ReplicaConnectionDetails.class, () -> replica(7, null, null))
        .run(
            context -> {
              assertThat(context.getBean(NodeRuntime.class).pools())
                  .containsOnlyKeys("source", "replica-1");
              assertThat(output)
                  .contains(
                      "Tidemark reads from the 1 replica(s) of the service connections:"
                          + " tidemark.replicas[1] and after are not used.");
            });
  }

  private static ReplicaConnectionDetails replica(
      int port, @Nullable String username, @Nullable String password) {
    return new ReplicaConnectionDetails() {
      @Override
      public String getJdbcUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/shop";
      }

      @Override
      public @Nullable String getUsername() {
        return username;
      }

      @Override
      public @Nullable String getPassword() {
        return password;
      }
    };
  }

  private static HikariDataSource pool(NodeRuntime nodes, String replica) {
    return (HikariDataSource) nodes.pools().get(replica);
  }
}
