package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.jdbc.ReplicaPools;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A source and one replica of the testkit on loopback, with a fresh database holding table {@code t
 * (id BIGINT PRIMARY KEY, v INT)}, and the pools the benchmark opened on them. One per JMH trial;
 * {@link #close()} closes the pools and stops the servers.
 *
 * <p>With {@code -Dtidemark.bench.reuseTopology=true} and forks 0 (the smoke run in {@code mvn
 * verify}) the servers are started once per JVM and only the database is new per trial, since
 * starting them takes longer than the smoke run of a benchmark; a real run forks, so every trial
 * starts its own servers and nothing of one trial can slow down the next.
 */
final class Cluster implements AutoCloseable {

  private static final boolean REUSE = Boolean.getBoolean("tidemark.bench.reuseTopology");
  private static @Nullable MySqlTopology shared;

  final MySqlTopology topology;
  final MySqlNode source;
  final MySqlNode replica;
  final String database;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  private Cluster(MySqlTopology topology, String prefix) {
    this.topology = topology;
    this.source = topology.source();
    this.replica = topology.replica();
    this.database = topology.createDatabase(prefix);
    source.execute("CREATE TABLE `" + database + "`.t (id BIGINT PRIMARY KEY, v INT)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
  }

  /** Starts (or, in the smoke run, reuses) the servers and creates the database. */
  static Cluster start(String prefix) {
    return new Cluster(topology(), prefix);
  }

  private static synchronized MySqlTopology topology() {
    if (!REUSE) {
      return MySqlTopology.builder().replicas(1).start();
    }
    if (shared == null) {
      // Stopped by the testkit when the JVM exits.
      shared = MySqlTopology.builder().replicas(1).start();
    }
    return shared;
  }

  /** A pool on the source whose commits report their GTIDs (Connector/J session tracking). */
  HikariDataSource trackingSourcePool(int size) {
    return pool(source, size, "&trackSessionState=true");
  }

  /** A pool on the source without session tracking: capture has to query the executed set. */
  HikariDataSource plainSourcePool(int size) {
    return pool(source, size, "");
  }

  /** A replica pool as the starter builds it: reads take its connections on their own thread. */
  HikariDataSource replicaPool(int size) {
    HikariDataSource pool = ReplicaPools.create(config(replica, size, ""));
    closeables.add(pool);
    warm(pool, size);
    return pool;
  }

  private HikariDataSource pool(MySqlNode node, int size, String options) {
    HikariDataSource pool = new HikariDataSource(config(node, size, options));
    closeables.add(pool);
    warm(pool, size);
    return pool;
  }

  private HikariConfig config(MySqlNode node, int size, String options) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(node.jdbcUrl(database) + options);
    config.setUsername(node.user());
    config.setPassword(node.password());
    config.setMaximumPoolSize(size);
    // Every connection opened before measuring, so no sample pays for a connect.
    config.setMinimumIdle(size);
    config.setConnectionTimeout(10_000);
    config.setPoolName(node.name() + "-" + database + "-" + closeables.size());
    return config;
  }

  /** Checks out all {@code size} connections at once, so the pool has opened them. */
  private static void warm(HikariDataSource pool, int size) {
    List<Connection> held = new ArrayList<>();
    try {
      for (int i = 0; i < size; i++) {
        held.add(pool.getConnection());
      }
      for (Connection c : held) {
        c.close();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open pool " + pool.getPoolName(), e);
    }
  }

  /** A connection of its own, outside any pool, with the benchmark's database as default. */
  Connection connect(MySqlNode node) throws SQLException {
    Connection c = node.openConnection(database);
    closeables.add(c);
    return c;
  }

  /** {@link #connect(MySqlNode)} with {@code options} ({@code &name=value...}) on its URL. */
  Connection connect(MySqlNode node, String options) throws SQLException {
    Connection c =
        DriverManager.getConnection(node.jdbcUrl(database) + options, node.user(), node.password());
    closeables.add(c);
    return c;
  }

  /** The highest GNO the source has given so far, from its {@code gtid_executed}. */
  long lastSourceGno() {
    return lastGno(source.gtidExecuted(), source.serverUuid());
  }

  /** The last GNO of {@code uuid} in a GTID set's text, or 0 when it has none. */
  static long lastGno(String gtidSet, String uuid) {
    for (String part : gtidSet.replace("\n", "").split(",")) {
      String trimmed = part.trim();
      if (trimmed.regionMatches(true, 0, uuid, 0, uuid.length())) {
        String last = trimmed.substring(trimmed.lastIndexOf(':') + 1);
        return Long.parseLong(last.substring(last.indexOf('-') + 1));
      }
    }
    return 0;
  }

  /** {@code SELECT v FROM t WHERE id = ?}: the value, or {@code null} when the row is missing. */
  /**
   * {@code read}'s result, waited for up to 30 s; a read that failed or took longer fails the run.
   */
  static <T> T done(Future<T> read) {
    try {
      return read.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("a read failed", e);
    }
  }

  /** When each of {@code reads} returned ({@link System#nanoTime}), in their order. */
  static List<Long> allDone(List<Future<Long>> reads) {
    List<Long> at = new ArrayList<>(reads.size());
    for (Future<Long> read : reads) {
      at.add(done(read));
    }
    return at;
  }

  static @Nullable Integer readRow(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : null;
      }
    }
  }

  static void insertRow(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)")) {
      ps.setLong(1, id);
      ps.setInt(2, (int) id);
      ps.executeUpdate();
    }
  }

  @Override
  public void close() {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      try {
        closeables.get(i).close();
      } catch (Exception e) {
        // Closing after the measurement; a failure here cannot change a result.
      }
    }
    if (!REUSE) {
      topology.close();
    }
  }
}
