package io.tidemark.spring.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;

/** The JDBC URL of a Compose service labelled a replica, from its image, ports and environment. */
class ReplicaDockerComposeConnectionDetailsFactoryTests {

  @Test
  void mysqlAndMariaDbOnThePortPublishedFor3306InTheirDatabase() {
    assertThat(url("mysql:8.4", Map.of("MYSQL_DATABASE", "shop")))
        .isEqualTo("jdbc:mysql://127.0.0.1:49153/shop");
    assertThat(url("registry.example.com/team/tidemark-test/mysql:9.7", Map.of()))
        .isEqualTo("jdbc:mysql://127.0.0.1:49153/");
    assertThat(url("mariadb:11.8", Map.of("MARIADB_DATABASE", "shop")))
        .isEqualTo("jdbc:mariadb://127.0.0.1:49153/shop");
    assertThat(url("mariadb:10.11", Map.of("MYSQL_DATABASE", "legacy")))
        .isEqualTo("jdbc:mariadb://127.0.0.1:49153/legacy");
  }

  @Test
  void postgresOnThePortPublishedFor5432InItsDatabaseElseItsUsersElsePostgres() {
    assertThat(url("postgres:18", Map.of("POSTGRES_DB", "shop", "POSTGRES_USER", "app")))
        .isEqualTo("jdbc:postgresql://127.0.0.1:49154/shop");
    assertThat(url("postgres:18", Map.of("POSTGRES_USER", "app")))
        .isEqualTo("jdbc:postgresql://127.0.0.1:49154/app");
    assertThat(url("bitnami/postgresql:17", Map.of()))
        .isEqualTo("jdbc:postgresql://127.0.0.1:49154/postgres");
  }

  @Test
  void anotherImageIsRefusedNamingTheServiceAndWhatToDo() {
    assertThatIllegalStateException()
        .isThrownBy(() -> url("redis:7", Map.of()))
        .withMessageContaining("Docker Compose service replica is labelled a Tidemark replica")
        .withMessageContaining("redis")
        .withMessageContaining("tidemark.replicas");
  }

  private static String url(String image, Map<String, @Nullable String> env) {
    return ReplicaDockerComposeConnectionDetailsFactory.jdbcUrl(service(image, env));
  }

  private static RunningService service(String image, Map<String, @Nullable String> env) {
    return new RunningService() {
      @Override
      public String name() {
        return "replica";
      }

      @Override
      public ImageReference image() {
        return ImageReference.of(image);
      }

      @Override
      public String host() {
        return "127.0.0.1";
      }

      @Override
      public ConnectionPorts ports() {
        return new ConnectionPorts() {
          @Override
          public int get(int containerPort) {
            return switch (containerPort) {
              case 3306 -> 49153;
              case 5432 -> 49154;
              default -> throw new IllegalStateException("no port published for " + containerPort);
            };
          }

          @Override
          public List<Integer> getAll() {
            return List.of(49153, 49154);
          }

          @Override
          public List<Integer> getAll(String protocol) {
            return getAll();
          }
        };
      }

      @Override
      public Map<String, @Nullable String> env() {
        return env;
      }

      @Override
      public Map<String, String> labels() {
        return Map.of("org.springframework.boot.service-connection", "tidemark-replica");
      }
    };
  }
}
