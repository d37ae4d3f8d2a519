package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.jdbc.ReplicaPools;
import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.ReplicatedTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A topology of the testkit on loopback with a fresh database holding table {@code t (id, v)}, and
 * the pools and connections the benchmark opened on it. One per JMH trial; {@link #close()} closes
 * them and stops the servers.
 *
 * <p>With {@code -Dtidemark.bench.reuseTopology=true} and forks 0 (the smoke run in {@code mvn
 * verify}) the servers are started once per JVM and only the database is new per trial, since
 * starting them takes longer than the smoke run of a benchmark; a real run forks, so every trial
 * starts its own servers and nothing of one trial can slow down the next.
 *
 * @param <N> the topology's nodes
 */
abstract class BenchCluster<N extends DatabaseNode<?>> implements SourceAndReplica {

  private static final boolean REUSE = Boolean.getBoolean("tidemark.bench.reuseTopology");
  private static final Map<Class<?>, ReplicatedTopology<?>> SHARED = new HashMap<>();

  final String database;

  /** The node the benchmark writes to: a source, or PostgreSQL's primary. */
  final N source;

  /** The node the benchmark reads from: a replica, or PostgreSQL's hot standby. */
  final N replica;

  private final ReplicatedTopology<N> topology;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  BenchCluster(ReplicatedTopology<N> topology, String prefix, N source, N replica) {
    this.topology = topology;
    this.database = topology.createDatabase(prefix);
    this.source = source;
    this.replica = replica;
  }

  /** A new topology from {@code start}, or in the smoke run the one started first. */
  static synchronized <T extends ReplicatedTopology<?>> T topology(
      Class<T> type, Supplier<T> start) {
    if (!REUSE) {
      return start.get();
    }
    // Stopped by the testkit when the JVM exits.
    return type.cast(SHARED.computeIfAbsent(type, t -> start.get()));
  }

  /**
   * A pool of {@code size} connections on {@code node}, all opened before it is returned, with
   * {@code options} ({@code &name=value...}) on its URL; for reads, as the starter builds a
   * replica's pool: reads take its connections on their own thread.
   */
  final HikariDataSource pool(N node, int size, String options, boolean forReads) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url(node) + options);
    config.setUsername(node.user());
    config.setPassword(node.password());
    config.setMaximumPoolSize(size);
    // Every connection opened before measuring, so no sample pays for a connect.
    config.setMinimumIdle(size);
    config.setConnectionTimeout(10_000);
    config.setPoolName(node.name() + "-" + database + "-" + closeables.size());
    HikariDataSource pool = forReads ? ReplicaPools.create(config) : new HikariDataSource(config);
    closeables.add(pool);
    warm(pool, size);
    return pool;
  }

  /**
   * The URL of the benchmark's database on {@code node}: the testkit's, unless a driver is chosen.
   */
  String url(N node) {
    return node.jdbcUrl(database);
  }

  @Override
  public HikariDataSource sourcePool(int size) {
    return pool(source, size, "", false);
  }

  @Override
  public HikariDataSource replicaPool(int size) {
    return pool(replica, size, "", true);
  }

  @Override
  public Connection connectReplica() throws SQLException {
    return connect(replica);
  }

  /** A connection of its own, outside any pool, on the benchmark's database. */
  final Connection connect(N node) throws SQLException {
    return connect(node, "");
  }

  /** {@link #connect(DatabaseNode)} with {@code options} ({@code &name=value...}) on its URL. */
  final Connection connect(N node, String options) throws SQLException {
    Connection c = DriverManager.getConnection(url(node) + options, node.user(), node.password());
    closeables.add(c);
    return c;
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

  /**
   * {@code read}'s result, waited for up to 30 s; a read that failed or took longer fails the run.
   */
  static <T> T done(Future<T> read) {
    return done(read, "a read failed");
  }

  /** {@code task}'s result, waited for up to 30 s; else the run fails with {@code failure}. */
  static <T> T done(Future<T> task, String failure) {
    try {
      return task.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(failure, e);
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

  /** {@code SELECT v FROM t WHERE id = ?}: the value, or {@code null} when the row is missing. */
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
  public final void close() {
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
