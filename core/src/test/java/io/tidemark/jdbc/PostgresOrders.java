package io.tidemark.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * An orders table in its own database of a testkit PostgreSQL topology, used by an application role
 * that is no superuser, with HikariCP pools as an application would configure them.
 */
final class PostgresOrders {

  static final String ROLE = "tidemark_app";
  private static final AtomicLong IDS = new AtomicLong();

  private final PostgresTopology topology;
  private final String db;

  /**
   * Creates the database and the table, and the role (once per topology) with the grants Tidemark
   * documents: {@code pg_monitor} to see a standby's timeline, {@code EXECUTE} on {@code
   * pg_read_file(text)} to read timeline histories.
   */
  PostgresOrders(PostgresTopology topology) {
    this.topology = topology;
    db = topology.createDatabase("orders");
    PostgresNode primary = topology.primary();
    primary.execute(
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '"
            + ROLE
            + "') THEN CREATE ROLE "
            + ROLE
            + " LOGIN PASSWORD 'app' IN ROLE pg_monitor; END IF; END $$",
        "GRANT ALL ON DATABASE " + db + " TO " + ROLE);
    try (Connection c = DriverManager.getConnection(primary.jdbcUrl(db), primary.user(), "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id bigint PRIMARY KEY, status text, revision bigint)");
      s.execute("GRANT ALL ON orders TO " + ROLE);
      s.execute("GRANT EXECUTE ON FUNCTION pg_read_file(text) TO " + ROLE);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(30));
  }

  /** The database of this table. */
  String database() {
    return db;
  }

  /** Runs {@code statements} on the primary, in this database, as the superuser. */
  void onPrimary(String... statements) {
    PostgresNode primary = topology.primary();
    try (Connection c = DriverManager.getConnection(primary.jdbcUrl(db), primary.user(), "");
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A plain pool on {@code node}, for the primary. */
  HikariDataSource pool(PostgresNode node) {
    return new HikariDataSource(config(node));
  }

  /** A pool of {@link ReplicaPools} on {@code node}, for a standby. */
  HikariDataSource replicaPool(PostgresNode node) {
    return ReplicaPools.create(config(node, 4));
  }

  /** {@link #replicaPool(PostgresNode)} of one connection, handed out to every read. */
  HikariDataSource singleConnectionReplicaPool(PostgresNode node) {
    return ReplicaPools.create(config(node, 1));
  }

  private HikariConfig config(PostgresNode node) {
    return config(node, 4);
  }

  private HikariConfig config(PostgresNode node, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(node.jdbcUrl(db));
    config.setUsername(ROLE);
    config.setPassword("app");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(5_000);
    config.setPoolName(node.name() + "-" + db + "-" + IDS.incrementAndGet());
    return config;
  }

  /** Inserts an order through {@code source}, in autocommit; returns its id. */
  static long create(javax.sql.DataSource source, String status) {
    return ReadPathContract.create(source, IDS.incrementAndGet(), status);
  }

  static long nextId() {
    return IDS.incrementAndGet();
  }

  /** Waits until {@code condition} holds, failing after {@code timeout}. */
  static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) {
    long end = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError("not within " + timeout + ": " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what);
      }
    }
  }

  static long systemId(PostgresNode node) {
    return Long.parseLong(node.queryString("SELECT system_identifier FROM pg_control_system()"));
  }
}
