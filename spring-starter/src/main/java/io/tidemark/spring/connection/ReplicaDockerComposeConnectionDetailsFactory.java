package io.tidemark.spring.connection;

import io.tidemark.spring.autoconfigure.ReplicaConnectionDetails;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;

/**
 * A replica from a Docker Compose service labelled {@code
 * org.springframework.boot.service-connection: tidemark-replica}: a MySQL, MariaDB or PostgreSQL
 * image, told apart by its name, reached on the port published for 3306 or 5432, in the database
 * its environment names. It logs in as the source's user (replication brings the source's users),
 * unless {@code tidemark.replicas[i]} names another.
 */
final class ReplicaDockerComposeConnectionDetailsFactory
    extends DockerComposeConnectionDetailsFactory<ReplicaConnectionDetails> {

  ReplicaDockerComposeConnectionDetailsFactory() {
    super(ReplicaServiceConnection.NAME);
  }

  @Override
  protected ReplicaConnectionDetails getDockerComposeConnectionDetails(
      DockerComposeConnectionSource source) {
    RunningService service = source.getRunningService();
    return new ComposeReplica(service, jdbcUrl(service));
  }

  static String jdbcUrl(RunningService service) {
    String image = service.image().getName();
    String kind = image.substring(image.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
    Map<String, @Nullable String> env = service.env();
    String scheme;
    int port;
    @Nullable String database;
    if (kind.contains("postgres")) {
      scheme = "postgresql";
      port = 5432;
      database = first(env, "POSTGRES_DB", "POSTGRES_USER");
      database = database != null ? database : "postgres";
    } else if (kind.contains("mariadb")) {
      scheme = "mariadb";
      port = 3306;
      database = first(env, "MARIADB_DATABASE", "MYSQL_DATABASE");
    } else if (kind.contains("mysql")) {
      scheme = "mysql";
      port = 3306;
      database = first(env, "MYSQL_DATABASE");
    } else {
      throw new IllegalStateException(
          "Docker Compose service "
              + service.name()
              + " is labelled a Tidemark replica, but its image "
              + image
              + " is not one of mysql, mariadb or postgres by name: give the replica its URL in"
              + " tidemark.replicas instead of the label.");
    }
    return "jdbc:"
        + scheme
        + "://"
        + service.host()
        + ":"
        + service.ports().get(port)
        + "/"
        + (database != null ? database : "");
  }

  private static @Nullable String first(Map<String, @Nullable String> env, String... names) {
    for (String name : names) {
      String value = env.get(name);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return null;
  }

  private static final class ComposeReplica extends DockerComposeConnectionDetails
      implements ReplicaConnectionDetails {

    private final String jdbcUrl;

    ComposeReplica(RunningService service, String jdbcUrl) {
      super(service);
      this.jdbcUrl = jdbcUrl;
    }

    @Override
    public String getJdbcUrl() {
      return jdbcUrl;
    }
  }
}
