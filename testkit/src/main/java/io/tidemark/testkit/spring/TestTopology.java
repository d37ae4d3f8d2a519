package io.tidemark.testkit.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Points a Spring test's application at the testkit's shared servers: {@code spring.datasource.*}
 * at the source, {@code tidemark.replicas[*].url} at its replicas, both on a database of the test's
 * own, and {@code tidemark.scope.redis-uri} at the shared Redis. The source and replicas are MySQL
 * ones, with {@code server = POSTGRESQL} a PostgreSQL primary and its hot standby, or with {@code
 * server = MARIADB} MariaDB ones. The servers run on the configured {@link
 * io.tidemark.testkit.Backend} (local processes by default, or containers) and are started once per
 * JVM, on first use.
 *
 * <pre>{@code
 * @SpringBootTest
 * @TestTopology
 * class OrdersTests { ... }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface TestTopology {

  /**
   * The prefix of the database made for the test's application context on the source (and so on its
   * replicas); the name gets a unique suffix.
   */
  String database() default "app";

  /** The database the source and its replicas run. */
  Server server() default Server.MYSQL;

  /** A database of the testkit's shared servers. */
  enum Server {
    /** {@link io.tidemark.testkit.junit.SharedServers#topology()}: a MySQL source and replica. */
    MYSQL,
    /**
     * {@link io.tidemark.testkit.junit.SharedServers#postgres()}: a PostgreSQL primary and hot
     * standby (local processes).
     */
    POSTGRESQL,
    /**
     * {@link io.tidemark.testkit.junit.SharedServers#mariadb()}: a MariaDB source and replica
     * (local processes).
     */
    MARIADB
  }
}
