package io.tidemark.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * How to reach one replica, as a service connection gives it: a container in a test ({@code
 * ReplicaServiceConnection}), a Docker Compose service in development, or a bean of the
 * application's. When there is any such bean, the replicas are these beans in bean order; the entry
 * of {@code tidemark.replicas} at the same index still gives the replica's name, filtered tables
 * and pool settings, as {@code spring.datasource.*} still gives the source's pool settings beside
 * Boot's own connection details.
 */
public interface ReplicaConnectionDetails extends ConnectionDetails {

  /** The replica's JDBC URL, e.g. {@code jdbc:mysql://localhost:32771/shop}. */
  String getJdbcUrl();

  /** The login user; {@code null} for the configured replica's, else the source's. */
  default @Nullable String getUsername() {
    return null;
  }

  /** The login password; {@code null} for the configured replica's, else the source's. */
  default @Nullable String getPassword() {
    return null;
  }
}
