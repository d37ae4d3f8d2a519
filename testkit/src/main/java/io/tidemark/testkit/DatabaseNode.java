package io.tidemark.testkit;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One database server of a {@link ReplicatedTopology}: how to reach it and the faults every
 * database's server takes. Every call opens its own short-lived connection, so a frozen or killed
 * server never poisons later calls.
 *
 * @param <R> the roles a node of this database can have
 */
public abstract class DatabaseNode<R extends Enum<R>> {

  /** The address every server listens on. */
  protected static final String HOST = "127.0.0.1";

  private final String name;
  private final ServerProcess process;
  private final FaultLinks links;
  private volatile R role;

  protected DatabaseNode(String name, ServerProcess process, R role) {
    this.name = name;
    this.process = process;
    this.links = new FaultLinks(HOST, process.port());
    this.role = role;
  }

  /** Name in the topology, such as {@code source}, {@code replica1} or {@code standby2}. */
  public final String name() {
    return name;
  }

  /** What the node is in the topology now; changes on a failover. */
  public final R role() {
    return role;
  }

  protected final void role(R now) {
    role = now;
  }

  public final String host() {
    return HOST;
  }

  public final int port() {
    return process.port();
  }

  /** A user with every privilege. */
  public abstract String user();

  /** Password of {@link #user()}: empty. */
  public final String password() {
    return "";
  }

  /** JDBC URL of the server's default database; options can be appended with {@code &}. */
  public final String jdbcUrl() {
    return jdbcUrl(defaultDatabase());
  }

  /** JDBC URL of {@code database}. */
  public final String jdbcUrl(String database) {
    return url(port(), database);
  }

  /**
   * The {@link FaultLink} named {@code name} to this server, opened on first use and closed with
   * the topology. It outlives a {@link #kill()} and {@link #restart()}, which keep the port.
   * Replication never goes through a link.
   */
  public final FaultLink link(String name) {
    return links.named(name);
  }

  /** JDBC URL of {@code database} through the {@link #link(String) link} named {@code link}. */
  public final String jdbcUrlThrough(String link, String database) {
    return url(link(link).port(), database);
  }

  /** Runs statements in order on one connection, in autocommit mode. */
  public final void execute(String... statements) {
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new TestkitException(name + ": " + e.getMessage(), e);
    }
  }

  /** Runs a query and returns the first column of its first row, or {@code null}. */
  public final @Nullable String queryString(String sql) {
    try (Connection c = admin();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      throw new TestkitException(name + ": " + e.getMessage(), e);
    }
  }

  /**
   * What {@code sql} answers, the first column of its first row: for a query a running server
   * always answers, such as of a server variable.
   *
   * @throws TestkitException when it answered nothing
   */
  protected final String value(String sql) {
    String value = queryString(sql);
    if (value == null) {
      throw new TestkitException(name + ": " + sql + " answered nothing");
    }
    return value;
  }

  /**
   * {@code delay} in whole seconds, the unit a replica's applier delay is set in.
   *
   * @throws IllegalArgumentException when {@code delay} is negative or not whole seconds
   */
  protected static long delaySeconds(Duration delay) {
    if (delay.isNegative() || delay.toNanos() % 1_000_000_000L != 0) {
      throw new IllegalArgumentException(
          "replication delay must be whole non-negative seconds: " + delay);
    }
    return delay.toSeconds();
  }

  /**
   * Runs {@code action} {@code delay} from now, on another thread: a write made meanwhile then
   * reaches a replica at a known time, while the test waits for it.
   */
  protected static CompletableFuture<Void> after(Duration delay, Runnable action) {
    return CompletableFuture.runAsync(
        action, CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS));
  }

  /** Suspends the server (SIGSTOP; a container is paused): connections hang, nothing answers. */
  public final void freeze() {
    process.freeze();
  }

  /** Resumes a {@link #freeze() frozen} server (SIGCONT; a container is unpaused). */
  public final void thaw() {
    process.thaw();
  }

  /** Kills the server (SIGKILL), like a crash. */
  public final void kill() {
    process.kill();
  }

  /** Starts a killed server again on the same port and data, as the node it was. */
  public final void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " is still running; kill() it first");
    }
    launch();
    process.awaitReady(jdbcUrl());
  }

  /** Whether the server runs (it may be frozen). */
  public final boolean isRunning() {
    return process.isAlive();
  }

  /**
   * Where the server stands now: what a node replicating from it must reach to have everything it
   * has.
   */
  public abstract String position();

  /**
   * Waits up to {@code timeout} until this server has reached {@code position}; returns whether it
   * did.
   */
  public abstract boolean awaitPosition(String position, Duration timeout);

  /** What a message says of the node when it did not catch up: where it stands. */
  protected String behind() {
    return "it is at " + position();
  }

  /** The database a URL names when the test names none. */
  protected abstract String defaultDatabase();

  /** The JDBC URL of {@code database} on a server listening on {@code port}. */
  protected abstract String url(int port, String database);

  /** A new connection for the calls above, as {@link #user()}; the caller closes it. */
  protected abstract Connection admin() throws SQLException;

  /** Starts the killed server without waiting, as the node it is now. */
  protected abstract void launch();

  void closeLinks() {
    links.closeAll();
  }

  @Override
  public String toString() {
    return name + " (" + role + ", " + HOST + ":" + port() + ")";
  }
}
