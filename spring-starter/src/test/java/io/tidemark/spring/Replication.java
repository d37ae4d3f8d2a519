package io.tidemark.spring;

import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A source and one replica, of MySQL or of PostgreSQL, on a database of the test's own: what the
 * applications of the starter's tests need of either, so that the same tests run on both.
 */
public interface Replication extends AutoCloseable {

  /** A JDBC URL of the source, on the test's database. */
  String sourceUrl();

  /** A JDBC URL of the replica, on the test's database. */
  String replicaUrl();

  String user();

  String password();

  /** Stops applying (MySQL's applier, PostgreSQL's replay); what arrives waits. */
  void pauseReplica();

  void resumeReplica();

  CompletableFuture<Void> resumeReplicaAfter(Duration delay);

  /** Stops receiving from the source, so nothing the source writes can reach the replica. */
  void stopReceiving();

  /** Receives again, and returns once the replica has caught up. */
  void startReceiving();

  /** Returns once the replica has applied all the source has. */
  void awaitCaughtUp();

  /** Closes what the test started for itself; the shared MySQL topology stays. */
  @Override
  void close();

  /** Runs {@code statement} on the source, in the test's database, once the replica has it too. */
  default void execute(String statement) {
    try (Connection c = DriverManager.getConnection(sourceUrl(), user(), password());
        Statement s = c.createStatement()) {
      s.execute(statement);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot run on the source: " + statement, e);
    }
    awaitCaughtUp();
  }

  /**
   * Whether order {@code id} of the test's {@code orders} table is on the replica, asked on it
   * directly: a replica that has not applied the insert answers {@code false}.
   */
  default boolean replicaHasOrder(long id) {
    try (Connection c = DriverManager.getConnection(replicaUrl(), user(), password());
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery("SELECT count(*) FROM orders WHERE id = " + id)) {
      rows.next();
      return rows.getLong(1) > 0;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The properties that start a test application on it, as Tidemark cluster {@code cluster} with
   * tokens signed by {@code secret}: the data source on the source, the replica as Tidemark's one
   * replica. A new map, for the application's own properties to join or override.
   */
  default Map<String, Object> applicationProperties(String cluster, String secret) {
    Map<String, Object> properties = new TreeMap<>();
    properties.put("spring.datasource.url", sourceUrl());
    properties.put("spring.datasource.username", user());
    properties.put("spring.datasource.password", password());
    properties.put("spring.datasource.hikari.maximum-pool-size", "4");
    properties.put("tidemark.cluster", cluster);
    properties.put("tidemark.token.secret", secret);
    properties.put("tidemark.replicas[0].name", "replica-1");
    properties.put("tidemark.replicas[0].url", replicaUrl());
    properties.put("tidemark.topology.refresh-interval", "200ms");
    return properties;
  }

  /** The databases the tests run on. */
  enum Database {
    MYSQL,
    POSTGRESQL;

    /**
     * A database named after {@code prefix}, its table made by {@code createTable}: on the shared
     * MySQL topology, or on a PostgreSQL primary and standby of its own.
     */
    public Replication start(String prefix, String createTable) {
      Replication started;
      if (this == MYSQL) {
        MySqlTopology topology = SharedServers.topology();
        started = mysql(topology, topology.createDatabase(prefix));
      } else {
        PostgresTopology topology = PostgresTopology.builder().standbys(1).start();
        try {
          started = postgres(topology, topology.createDatabase(prefix));
        } catch (RuntimeException e) {
          topology.close();
          throw e;
        }
      }
      try {
        started.execute(createTable);
      } catch (RuntimeException e) {
        started.close();
        throw e;
      }
      return started;
    }
  }

  /** On database {@code db} of {@code topology}'s source and first replica; they stay running. */
  static Replication mysql(MySqlTopology topology, String db) {
    MySqlNode source = topology.source();
    MySqlNode replica = topology.replica();
    return new Replication() {
      @Override
      public String sourceUrl() {
        return source.jdbcUrl(db);
      }

      @Override
      public String replicaUrl() {
        return replica.jdbcUrl(db);
      }

      @Override
      public String user() {
        return source.user();
      }

      @Override
      public String password() {
        return source.password();
      }

      @Override
      public void pauseReplica() {
        replica.pauseApplier();
      }

      @Override
      public void resumeReplica() {
        replica.resumeApplier();
      }

      @Override
      public CompletableFuture<Void> resumeReplicaAfter(Duration delay) {
        return replica.resumeApplierAfter(delay);
      }

      @Override
      public void stopReceiving() {
        replica.stopReceiver();
      }

      @Override
      public void startReceiving() {
        replica.startReceiver();
        awaitCaughtUp();
      }

      @Override
      public void awaitCaughtUp() {
        topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
      }

      @Override
      public void close() {}
    };
  }

  /**
   * On database {@code db} of {@code topology}'s primary and standby, as its superuser; {@link
   * #close} closes {@code topology}.
   */
  static Replication postgres(PostgresTopology topology, String db) {
    PostgresNode primary = topology.primary();
    PostgresNode standby = topology.standby();
    return new Replication() {
      @Override
      public String sourceUrl() {
        return primary.jdbcUrl(db);
      }

      @Override
      public String replicaUrl() {
        return standby.jdbcUrl(db);
      }

      @Override
      public String user() {
        return primary.user();
      }

      @Override
      public String password() {
        return primary.password();
      }

      @Override
      public void pauseReplica() {
        standby.pauseReplay();
      }

      @Override
      public void resumeReplica() {
        standby.resumeReplay();
      }

      @Override
      public CompletableFuture<Void> resumeReplicaAfter(Duration delay) {
        return standby.resumeReplayAfter(delay);
      }

      @Override
      public void stopReceiving() {
        standby.stopReceiver();
      }

      @Override
      public void startReceiving() {
        standby.startReceiver();
        awaitCaughtUp();
      }

      @Override
      public void awaitCaughtUp() {
        topology.awaitStandbysCaughtUp(Duration.ofSeconds(30));
      }

      @Override
      public void close() {
        topology.close();
      }
    };
  }
}
