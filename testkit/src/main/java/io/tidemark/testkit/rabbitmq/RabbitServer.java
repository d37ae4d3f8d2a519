package io.tidemark.testkit.rabbitmq;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.FileTrees;
import io.tidemark.testkit.FreePorts;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.TestkitException;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A real RabbitMQ broker, Debian's {@code rabbitmq-server}, as a local process on free loopback
 * ports with a folder of its own: its own Erlang port mapper ({@code epmd}), node name, database,
 * logs and cookie, so that it neither meets a system broker nor another test's. The default user
 * {@code guest}/{@code guest} may connect.
 */
public final class RabbitServer implements AutoCloseable {

  private static final Path SERVER = Path.of("/usr/lib/rabbitmq/bin/rabbitmq-server");
  private static final String INSTALL = "sudo apt-get install rabbitmq-server";
  // The Erlang VM loads RabbitMQ's few hundred modules before it listens: about 8 s on an idle
  // machine, several times that when other servers start beside it.
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final Path home;
  private final Path epmdBinary;
  private final int port;
  private final int epmdPort;
  private @Nullable Process epmd;
  private @Nullable Process broker;

  private RabbitServer(Path home, Path epmdBinary, int port, int epmdPort) {
    this.home = home;
    this.epmdBinary = epmdBinary;
    this.port = port;
    this.epmdPort = epmdPort;
  }

  /**
   * Starts a broker and waits until it answers the AMQP 0-9-1 protocol header.
   *
   * @throws TestkitException when RabbitMQ is not installed or does not start in time
   */
  public static RabbitServer start() {
    RabbitServer server =
        new RabbitServer(
            ProcessReaper.newFolder("rabbitmq"),
            requireInstalled(SERVER, System.getenv()),
            FreePorts.next(),
            FreePorts.next());
    ProcessReaper.closeAtShutdown(server);
    try {
      server.launch(FreePorts.next());
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** The {@code epmd} to run, after checking that RabbitMQ is installed at {@code server}. */
  static Path requireInstalled(Path server, Map<String, String> env) {
    if (!Files.isExecutable(server)) {
      throw new TestkitException(
          "RabbitMQ is not installed ("
              + server
              + " is missing): run '"
              + INSTALL
              + "' (bin/test installs it when run as root), then retry");
    }
    for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, "epmd");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    Path erlang = Path.of("/usr/lib/erlang/bin/epmd");
    if (Files.isExecutable(erlang)) {
      return erlang;
    }
    throw new TestkitException(
        "RabbitMQ's Erlang has no epmd on the PATH nor at " + erlang + ": run '" + INSTALL + "'");
  }

  private void launch(int distributionPort) {
    Path mnesia = home.resolve("mnesia");
    Path log = home.resolve("log");
    Path erlangHome = home.resolve("home");
    Path configuration = home.resolve("rabbitmq.conf");
    Path plugins = home.resolve("enabled_plugins");
    // Replaces /etc/rabbitmq/rabbitmq-env.conf, which could rename the node or move its files.
    Path environmentFile = home.resolve("rabbitmq-env.conf");
    try {
      Files.createDirectories(mnesia);
      Files.createDirectories(log);
      Files.createDirectories(erlangHome);
      Files.writeString(
          configuration,
          "listeners.tcp.default = 127.0.0.1:" + port + "\nloopback_users = none\n",
          StandardCharsets.UTF_8);
      Files.writeString(plugins, "[].\n", StandardCharsets.UTF_8);
      Files.writeString(environmentFile, "", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TestkitException("cannot prepare " + home, e);
    }

    // An epmd of our own, in the foreground: the broker would otherwise start a daemon one that
    // nothing here knows the pid of and that outlives it.
    ProcessBuilder mapperBuilder =
        new ProcessBuilder(epmdBinary.toString(), "-port", Integer.toString(epmdPort))
            .redirectInput(Redirect.from(new File("/dev/null")))
            .redirectOutput(Redirect.appendTo(home.resolve("epmd.out").toFile()))
            .redirectErrorStream(true);
    mapperBuilder.environment().put("ERL_EPMD_ADDRESS", "127.0.0.1");
    epmd = started(mapperBuilder);
    writePid("epmd.pid", epmd);
    Process mapper = epmd;
    if (!Poll.until(() -> mapper.isAlive() && accepts(epmdPort), START_TIMEOUT)) {
      throw new TestkitException(
          "epmd on port " + epmdPort + " did not start" + exitOf(mapper) + "; see " + home);
    }

    ProcessBuilder builder =
        new ProcessBuilder(SERVER.toString())
            .redirectInput(Redirect.from(new File("/dev/null")))
            .redirectOutput(Redirect.appendTo(home.resolve("rabbitmq.out").toFile()))
            .redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("HOME", erlangHome.toString());
    env.put("ERL_EPMD_PORT", Integer.toString(epmdPort));
    env.put("ERL_EPMD_ADDRESS", "127.0.0.1");
    env.put("RABBITMQ_NODENAME", "tidemark-" + port + "@localhost");
    env.put("RABBITMQ_NODE_PORT", Integer.toString(port));
    env.put("RABBITMQ_DIST_PORT", Integer.toString(distributionPort));
    env.put("RABBITMQ_MNESIA_BASE", mnesia.toString());
    env.put("RABBITMQ_LOG_BASE", log.toString());
    env.put("RABBITMQ_CONFIG_FILE", configuration.toString());
    env.put("RABBITMQ_ADVANCED_CONFIG_FILE", home.resolve("advanced.config").toString());
    env.put("RABBITMQ_CONF_ENV_FILE", environmentFile.toString());
    env.put("RABBITMQ_ENABLED_PLUGINS_FILE", plugins.toString());
    env.put("RABBITMQ_ENABLED_PLUGINS", "");
    // The script then replaces itself with the Erlang VM instead of running it in the background:
    // the process started here is the broker, its pid known at once for the reaper and SIGTERM
    // stopping it cleanly. -noinput keeps the Erlang shell from reading the input.
    env.put("RABBITMQ_ALLOW_INPUT", "true");
    env.put(
        "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS",
        "-noinput -kernel inet_dist_use_interface {127,0,0,1}");
    broker = started(builder);
    writePid("rabbitmq.pid", broker);
    Process started = broker;
    boolean ready =
        Poll.until(
            () -> {
              if (!started.isAlive()) {
                throw new TestkitException(
                    "rabbitmq-server on port "
                        + port
                        + " exited with "
                        + started.exitValue()
                        + "; see "
                        + home.resolve("rabbitmq.out"));
              }
              return speaksAmqp();
            },
            START_TIMEOUT);
    if (!ready) {
      throw new TestkitException(
          "rabbitmq-server on port " + port + " not ready in " + START_TIMEOUT + "; see " + home);
    }
  }

  private static Process started(ProcessBuilder builder) {
    try {
      return builder.start();
    } catch (IOException e) {
      throw new TestkitException("cannot start " + builder.command(), e);
    }
  }

  private void writePid(String file, Process process) {
    try {
      Files.writeString(home.resolve(file), Long.toString(process.pid()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      process.destroyForcibly();
      throw new TestkitException("cannot write " + home.resolve(file), e);
    }
  }

  private static String exitOf(Process process) {
    return process.isAlive() ? "" : " (exit " + process.exitValue() + ")";
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException notYet) {
      return false;
    }
  }

  /**
   * Whether the broker answers the AMQP 0-9-1 protocol header with {@code Connection.Start}: it
   * listens once booted, but the port can accept a moment before a connection is served.
   */
  private boolean speaksAmqp() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(2000);
      socket.getOutputStream().write(new byte[] {'A', 'M', 'Q', 'P', 0, 0, 9, 1});
      socket.getOutputStream().flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      int frameType = in.readUnsignedByte();
      int channel = in.readUnsignedShort();
      in.readInt();
      int classId = in.readUnsignedShort();
      int methodId = in.readUnsignedShort();
      return frameType == 1 && channel == 0 && classId == 10 && methodId == 10;
    } catch (IOException notYet) {
      return false;
    }
  }

  public String host() {
    return "127.0.0.1";
  }

  /** The AMQP port. */
  public int port() {
    return port;
  }

  public String username() {
    return "guest";
  }

  public String password() {
    return "guest";
  }

  /** {@code amqp://guest:guest@127.0.0.1:port}, as the RabbitMQ client and Spring Boot take it. */
  public String uri() {
    return "amqp://" + username() + ":" + password() + "@" + host() + ":" + port;
  }

  /** RabbitMQ's version, from the name of its installed release folder. */
  public String version() {
    Path releases = SERVER.resolveSibling("../lib").normalize();
    try (Stream<Path> folders = Files.list(releases)) {
      return folders
          .map(folder -> folder.getFileName().toString())
          .filter(name -> name.startsWith("rabbitmq_server-"))
          .map(name -> name.substring("rabbitmq_server-".length()))
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** The broker's process (the Erlang VM) and its epmd, while they run. */
  List<ProcessHandle> processes() {
    return Stream.of(broker, epmd)
        .filter(p -> p != null && p.isAlive())
        .map(Process::toHandle)
        .toList();
  }

  int epmdPort() {
    return epmdPort;
  }

  /** The folder the broker runs in. */
  Path home() {
    return home;
  }

  /** Stops the broker (SIGTERM, then SIGKILL after a minute), then its epmd; deletes its folder. */
  @Override
  public synchronized void close() {
    if (!ProcessReaper.forget(this)) {
      return;
    }
    try {
      stop(broker);
      stopEpmd();
    } finally {
      FileTrees.deleteRecursively(home);
    }
  }

  private static void stop(@Nullable Process process) {
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while stopping " + process.pid(), e);
    }
  }

  private void stopEpmd() {
    Process mapper = epmd;
    if (mapper == null) {
      return;
    }
    if (mapper.isAlive()) {
      try {
        Commands.run(
            List.of(epmdBinary.toString(), "-port", Integer.toString(epmdPort), "-kill"),
            Duration.ofSeconds(10));
      } catch (TestkitException refused) {
        mapper.destroyForcibly();
      }
    }
    try {
      if (!mapper.waitFor(10, TimeUnit.SECONDS)) {
        mapper.destroyForcibly();
        mapper.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      mapper.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while stopping epmd on port " + epmdPort, e);
    }
  }

  @Override
  public String toString() {
    return "RabbitServer(127.0.0.1:" + port + ")";
  }
}
