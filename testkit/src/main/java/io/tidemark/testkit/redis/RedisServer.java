package io.tidemark.testkit.redis;

import io.tidemark.testkit.Backend;
import io.tidemark.testkit.CacheDirectory;
import io.tidemark.testkit.FaultLink;
import io.tidemark.testkit.FaultLinks;
import io.tidemark.testkit.FileTrees;
import io.tidemark.testkit.FreePorts;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.TestkitException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A real Redis server on a free loopback port, without persistence: as a local process, {@code
 * redis-server} from the {@code PATH} when there is one, else the Linux binary bundled in {@code
 * com.github.codemonstur:embedded-redis}; or in a container of {@link Backend#redisImage()} when
 * the {@link Backend} is containers. Can be killed, restarted and frozen for fault tests. The same
 * class runs the sentinels of a {@link RedisSentinel}.
 */
public final class RedisServer implements AutoCloseable {

  private static final String BUNDLED = "redis-server-6.2.6-v5-linux-amd64";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final RedisRunner runner;
  private final Path home;
  private final int port;
  private final List<String> leadingArguments;
  private final List<String> extraArguments;
  private final FaultLinks links;

  private RedisServer(
      Path home, int port, List<String> leadingArguments, List<String> extraArguments) {
    this.runner =
        Backend.configured() == Backend.CONTAINERS
            ? new RedisContainer(Backend.redisImage(), home)
            : new RedisProcess(resolveBinary(System.getenv()), home.resolve("redis.out"));
    this.home = home;
    this.port = port;
    this.leadingArguments = List.copyOf(leadingArguments);
    this.extraArguments = List.copyOf(extraArguments);
    this.links = new FaultLinks("127.0.0.1", port);
  }

  /** Starts a server and waits until it answers {@code PING}. */
  public static RedisServer start() {
    return start(FreePorts.next(), List.of());
  }

  /**
   * Starts a server that writes every command to its append-only file before answering, so that
   * after {@link #kill()} and {@link #restart()} it has every write it acknowledged.
   */
  public static RedisServer startPersistent() {
    return start(FreePorts.next(), List.of("--appendonly", "yes", "--appendfsync", "always"));
  }

  /** Starts a server on {@code port} with extra {@code redis-server} arguments. */
  static RedisServer start(int port, List<String> extraArguments) {
    RedisServer server =
        new RedisServer(ProcessReaper.newFolder("redis"), port, List.of(), extraArguments);
    return launched(server);
  }

  /**
   * Starts a sentinel ({@code redis-server sentinel.conf --sentinel}) on a free port and waits
   * until it answers {@code PING}. Its {@code sentinel.conf} holds {@code directives}; port, bind
   * address, folder, pid file and log file come from the command line as for a server, and the
   * sentinel writes them into the file when it rewrites it with what it learns.
   */
  static RedisServer startSentinel(List<String> directives) {
    Path home = ProcessReaper.newFolder("sentinel");
    // A sentinel refuses to start without a configuration file it can rewrite.
    Path configuration = home.resolve("sentinel.conf");
    try {
      Files.write(configuration, directives);
    } catch (IOException e) {
      throw new TestkitException("cannot write " + configuration, e);
    }
    RedisServer server =
        new RedisServer(
            home, FreePorts.next(), List.of(configuration.toString()), List.of("--sentinel"));
    return launched(server);
  }

  /**
   * Waits up to {@code timeout} until every one of {@code servers} that runs passes {@code check},
   * a command that fails meaning not yet; returns whether they all did.
   */
  static boolean awaitEveryRunning(
      List<RedisServer> servers, Predicate<RedisServer> check, Duration timeout) {
    return Poll.until(
        () ->
            servers.stream()
                .filter(RedisServer::isRunning)
                .allMatch(
                    server -> {
                      try {
                        return check.test(server);
                      } catch (TestkitException notYet) {
                        return false;
                      }
                    }),
        timeout);
  }

  private static RedisServer launched(RedisServer server) {
    ProcessReaper.closeAtShutdown(server);
    try {
      server.launch();
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  private static Path resolveBinary(Map<String, String> env) {
    for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, "redis-server");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    Path folder =
        CacheDirectory.fromEnvironment(env)
            .entry(
                "redis-6.2.6-linux-x86_64",
                scratch -> {
                  Path target = scratch.resolve("redis-server");
                  CacheDirectory.copyResource(BUNDLED, target);
                  if (!target.toFile().setExecutable(true)) {
                    throw new IOException("cannot make " + target + " executable");
                  }
                });
    return folder.resolve("redis-server");
  }

  private void launch() {
    List<String> command = new ArrayList<>();
    // redis-server reads a configuration file only as its first argument.
    command.addAll(leadingArguments);
    command.addAll(
        List.of(
            "--port",
            Integer.toString(port),
            "--bind",
            "127.0.0.1",
            "--protected-mode",
            "no",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            home.toString(),
            "--pidfile",
            home.resolve("redis.pid").toString(),
            "--logfile",
            home.resolve("redis.log").toString()));
    command.addAll(extraArguments);
    runner.start(command);
    boolean ready =
        Poll.until(
            () -> {
              if (!runner.isAlive()) {
                throw new TestkitException(
                    "redis-server on port " + port + " " + runner.exitDetail());
              }
              try {
                return "PONG".equals(command("PING"));
              } catch (TestkitException notYet) {
                return false;
              }
            },
            START_TIMEOUT);
    if (!ready) {
      throw new TestkitException("redis-server on port " + port + " not ready in " + START_TIMEOUT);
    }
  }

  public String host() {
    return "127.0.0.1";
  }

  public int port() {
    return port;
  }

  /** {@code redis://127.0.0.1:port}, as Lettuce takes it. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /**
   * The {@link FaultLink} named {@code name} to this server, opened on first use and closed with
   * the server; it outlives a {@link #kill()} and {@link #restart()}, which keep the port.
   */
  public FaultLink link(String name) {
    return links.named(name);
  }

  /** {@code redis://127.0.0.1:port} through the {@link #link(String) link} named {@code link}. */
  public String uriThrough(String link) {
    return "redis://127.0.0.1:" + link(link).port();
  }

  /** The folder the server runs in. */
  Path home() {
    return home;
  }

  /** Where it runs and what: the backend, and the executable or the image. */
  public String backend() {
    return runner.describe();
  }

  /**
   * Sends one command and returns its reply: the text of a simple string, integer or bulk string,
   * or {@code null} for a null bulk string.
   *
   * @throws TestkitException on an error reply or when the server cannot be reached within 2 s
   */
  public @Nullable String command(String... arguments) {
    return exchange(arguments, in -> Optional.ofNullable(readReply(in))).orElse(null);
  }

  /**
   * Sends one command whose reply is an array of strings, such as {@code SENTINEL
   * get-master-addr-by-name}, and returns its elements; an empty list for a null array.
   *
   * @throws TestkitException on an error reply or when the server cannot be reached within 2 s
   */
  List<@Nullable String> commandForArray(String... arguments) {
    return exchange(arguments, this::readArray);
  }

  /** Reads one reply of a known shape from a server. */
  private interface ReplyReader<T> {
    T read(InputStream in) throws IOException;
  }

  private <T> T exchange(String[] arguments, ReplyReader<T> reader) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host(), port), 2000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      ByteArrayOutputStream request = new ByteArrayOutputStream();
      request.writeBytes(("*" + arguments.length + "\r\n").getBytes(StandardCharsets.UTF_8));
      for (String argument : arguments) {
        byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
        request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
        request.writeBytes(bytes);
        request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
      }
      out.write(request.toByteArray());
      out.flush();
      return reader.read(new BufferedInputStream(socket.getInputStream()));
    } catch (IOException e) {
      throw new TestkitException("redis on port " + port + ": " + e.getMessage(), e);
    }
  }

  private @Nullable String readReply(InputStream in) throws IOException {
    int type = in.read();
    String line = readLine(in);
    switch (type) {
      case '+', ':' -> {
        return line;
      }
      case '-' -> throw new TestkitException("redis on port " + port + " replied " + line);
      case '$' -> {
        int length = Integer.parseInt(line);
        if (length < 0) {
          return null;
        }
        byte[] bytes = in.readNBytes(length + 2);
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
      }
      default -> throw new TestkitException("unsupported redis reply type " + (char) type);
    }
  }

  private List<@Nullable String> readArray(InputStream in) throws IOException {
    int type = in.read();
    String line = readLine(in);
    if (type == '-') {
      throw new TestkitException("redis on port " + port + " replied " + line);
    }
    if (type != '*') {
      throw new TestkitException("redis on port " + port + " replied no array but " + (char) type);
    }
    List<@Nullable String> elements = new ArrayList<>();
    for (int i = 0; i < Integer.parseInt(line); i++) {
      elements.add(readReply(in));
    }
    return elements;
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed mid-reply");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  /**
   * Kills the server (SIGKILL); its data is gone, as after a crash without persistence, unless it
   * was {@linkplain #startPersistent() started persistent}.
   */
  public synchronized void kill() {
    runner.kill();
    try {
      Files.deleteIfExists(home.resolve("redis.pid"));
    } catch (IOException e) {
      throw new TestkitException("cannot remove redis pid file", e);
    }
  }

  /** Starts a killed server again on the same port. */
  public synchronized void restart() {
    if (runner.isAlive()) {
      throw new IllegalStateException("redis on port " + port + " still runs; kill() it first");
    }
    launch();
  }

  /**
   * Suspends the server (SIGSTOP; a container is paused): connections are accepted by the kernel,
   * nothing answers.
   */
  public void freeze() {
    runner.freeze();
  }

  /** Resumes a frozen server (SIGCONT; a container is unpaused). */
  public void thaw() {
    runner.thaw();
  }

  public boolean isRunning() {
    return runner.isAlive();
  }

  /** The process's pid, on the process backend. */
  public long pid() {
    if (runner instanceof RedisProcess process) {
      return process.pid();
    }
    throw new IllegalStateException("redis on port " + port + " runs in a container");
  }

  /** The server's version, from {@code INFO server}. */
  public String version() {
    String info = command("INFO", "server");
    return info == null
        ? "unknown"
        : List.of(info.split("\r\n")).stream()
            .filter(l -> l.startsWith("redis_version:"))
            .map(l -> l.substring("redis_version:".length()))
            .findFirst()
            .orElse("unknown");
  }

  /** Kills the server and deletes its folder. */
  @Override
  public synchronized void close() {
    if (!ProcessReaper.forget(this)) {
      return;
    }
    links.closeAll();
    kill();
    FileTrees.deleteRecursively(home);
  }

  @Override
  public String toString() {
    return "RedisServer(127.0.0.1:" + port + ")";
  }
}
