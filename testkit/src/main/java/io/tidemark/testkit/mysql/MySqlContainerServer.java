package io.tidemark.testkit.mysql;

import io.tidemark.testkit.DaemonProcess;
import io.tidemark.testkit.HostContainer;
import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.BindMode;

/**
 * A {@code mysqld} in a container of a Docker engine, on the host's network so that it listens on a
 * loopback port of this machine like a local process, with its data in a folder of this machine: a
 * kill removes the container, a restart makes a new one on the same data. Runs the official {@code
 * mysql} image or one that honours its variables.
 */
final class MySqlContainerServer extends HostContainer implements MySqlServer {

  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final String DATA = "/var/lib/mysql";

  private final String name;
  private final Path home;
  private final int port;
  private final int serverId;
  private boolean initialized;
  private boolean readOnlyPending;

  MySqlContainerServer(String image, String name, Path home, int port, int serverId) {
    super(image, name, home);
    this.name = name;
    this.home = home;
    this.port = port;
    this.serverId = serverId;
  }

  @Override
  public int port() {
    return port;
  }

  /**
   * The first start initializes the data folder, where the image's set-up would refuse a
   * super-read-only server: read-only is set once the replication user is made.
   */
  @Override
  public synchronized void launch(boolean readOnly) {
    try {
      Files.createDirectories(dataDirectory());
    } catch (IOException e) {
      throw new TestkitException("cannot create " + dataDirectory(), e);
    }
    List<String> options =
        new ArrayList<>(MySqlServerProcess.serverOptions(port, serverId, readOnly && initialized));
    readOnlyPending = readOnly && !initialized;
    startContainer(
        "mysql",
        c ->
            c.withEnv("MYSQL_ALLOW_EMPTY_PASSWORD", "yes")
                .withEnv("MYSQL_ROOT_HOST", "%")
                .withFileSystemBind(dataDirectory().toString(), DATA, BindMode.READ_WRITE)
                .withCreateContainerCmdModifier(
                    create -> create.withName("tidemark-" + name + "-" + port))
                .withCommand(options.toArray(String[]::new)));
  }

  @Override
  public void awaitReady(String jdbcUrl) {
    DaemonProcess.awaitAccepting(
        jdbcUrl,
        "the container of " + name,
        () -> isAlive() ? null : "exited" + logTail(),
        this::logTail,
        START_TIMEOUT);
    synchronized (this) {
      if (!initialized) {
        initialize(jdbcUrl);
        initialized = true;
      }
    }
  }

  /** The replication user, outside the binary log so that no node gets a GTID of its own. */
  private void initialize(String jdbcUrl) {
    try (Connection c = DriverManager.getConnection(jdbcUrl, MySqlServerProcess.USER, "");
        Statement s = c.createStatement()) {
      s.execute("SET SESSION sql_log_bin = 0");
      s.execute(
          "CREATE USER IF NOT EXISTS '"
              + MySqlServerProcess.REPLICATION_USER
              + "'@'%' IDENTIFIED BY '"
              + MySqlServerProcess.REPLICATION_PASSWORD
              + "'");
      s.execute(
          "GRANT REPLICATION SLAVE ON *.* TO '" + MySqlServerProcess.REPLICATION_USER + "'@'%'");
      if (readOnlyPending) {
        s.execute("SET GLOBAL super_read_only = ON");
      }
    } catch (SQLException e) {
      throw new TestkitException(name + ": cannot create the replication user: " + e, e);
    }
  }

  @Override
  public void remove() {
    kill();
  }

  @Override
  public Path dataDirectory() {
    return home.resolve("data");
  }

  /** What the server logged last, for a failure's message. */
  private String logTail() {
    List<String> tail = logTail(25);
    return tail.isEmpty() ? "" : "\n--- " + image() + " (tail) ---\n" + String.join("\n", tail);
  }
}
