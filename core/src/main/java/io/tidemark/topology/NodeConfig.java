package io.tidemark.topology;

import java.util.Objects;

/**
 * One configured node: a name for records and logs, and how to reach it. Its role is not part of
 * the configuration; the servers say what they are.
 *
 * @param name unique name, e.g. {@code db1}
 * @param jdbcUrl {@code jdbc:mysql://host:port/...}
 * @param user user for probes
 * @param password password for probes
 */
public record NodeConfig(String name, String jdbcUrl, String user, String password) {

  /**
   * @throws IllegalArgumentException on a blank name or a URL that is not a MySQL JDBC URL
   */
  public NodeConfig {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (name.isBlank()) {
      throw new IllegalArgumentException("node name must not be blank");
    }
    if (!jdbcUrl.startsWith("jdbc:mysql:")) {
      throw new IllegalArgumentException(
          "node " + name + ": not a MySQL JDBC URL (jdbc:mysql://...): " + jdbcUrl);
    }
  }

  @Override
  public String toString() {
    return "NodeConfig[" + name + ", " + jdbcUrl + ", user " + user + "]";
  }
}
