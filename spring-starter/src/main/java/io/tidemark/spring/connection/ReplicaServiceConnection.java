package io.tidemark.spring.connection;

import io.tidemark.spring.autoconfigure.ReplicaConnectionDetails;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

/**
 * Marks a Testcontainers database container (MySQL, MariaDB or PostgreSQL) as a replica of the
 * application's source, as {@code @ServiceConnection} marks the source: Tidemark reads from it, and
 * Boot does not take it for the application's {@code DataSource}.
 *
 * <pre>{@code
 * @Container @ServiceConnection
 * static MySQLContainer source = new MySQLContainer("mysql:8.4");
 * @Container @ReplicaServiceConnection
 * static MySQLContainer replica = new MySQLContainer("mysql:8.4");
 * }</pre>
 *
 * Replication between the two is the test's to set up.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE})
@ServiceConnection(name = ReplicaServiceConnection.NAME, type = ReplicaConnectionDetails.class)
public @interface ReplicaServiceConnection {

  /**
   * The connection name of replicas: the name of this annotation's service connection, and the
   * value of a Docker Compose service's {@code org.springframework.boot.service-connection} label.
   */
  String NAME = "tidemark-replica";
}
