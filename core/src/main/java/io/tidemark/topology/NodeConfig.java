package io.tidemark.topology;

import static java.util.stream.Collectors.toUnmodifiableSet;

import io.tidemark.dialect.Dialect;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * One configured node: a name for records and logs, and how to reach it. Its role is not part of
 * the configuration; the servers say what they are.
 *
 * @param name unique name, e.g. {@code db1}
 * @param jdbcUrl {@code jdbc:mysql://host:port/...} or {@code jdbc:postgresql://host:port/...}
 * @param user user for probes
 * @param password password for probes
 * @param filteredTables tables ({@code db.table}, lower case) this node's replication filters leave
 *     out: reads of them never run here
 */
public record NodeConfig(
    String name, String jdbcUrl, String user, String password, Set<String> filteredTables) {

  /** A node without replication filters. */
  public NodeConfig(String name, String jdbcUrl, String user, String password) {
    this(name, jdbcUrl, user, password, Set.of());
  }

  /**
   * @throws IllegalArgumentException on a blank name or a URL that is not a MySQL, MariaDB or
   *     PostgreSQL JDBC URL
   */
  public NodeConfig {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    filteredTables =
        filteredTables.stream().map(t -> t.toLowerCase(Locale.ROOT)).collect(toUnmodifiableSet());
    if (name.isBlank()) {
      throw new IllegalArgumentException("node name must not be blank");
    }
    if (Dialect.forUrl(jdbcUrl) == null) {
      throw new IllegalArgumentException(
          "node "
              + name
              + ": not a MySQL, MariaDB or PostgreSQL JDBC URL (jdbc:mysql://...,"
              + " jdbc:mariadb://..., jdbc:postgresql://...): "
              + jdbcUrl);
    }
  }

  /** The database the node's URL names. */
  Dialect dialect() {
    return Objects.requireNonNull(Dialect.forUrl(jdbcUrl));
  }

  @Override
  public String toString() {
    return "NodeConfig[" + name + ", " + jdbcUrl + ", user " + user + "]";
  }
}
