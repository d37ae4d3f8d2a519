package io.tidemark.demo;

import io.tidemark.testkit.DatabaseNode;
import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.SkewedClock;
import io.tidemark.testkit.mariadb.MariaDbNode;
import io.tidemark.testkit.mariadb.MariaDbTopology;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.testkit.redis.RedisServer;
import io.tidemark.token.TokenCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * Two instances of the orders service on one MySQL, MariaDB or PostgreSQL topology and one Redis,
 * each the other's peer; with the embedded servers, or pointed at real ones by the same properties.
 */
final class Demo implements AutoCloseable {

  /**
   * Signing secret of the demo's instances, random for each run: both instances run in this JVM. A
   * real deployment takes its own from the environment.
   */
  static final String SECRET = randomSecret();

  private final ConfigurableApplicationContext first;
  private final ConfigurableApplicationContext second;
  private final String firstUrl;
  private final String secondUrl;
  private final String database;

  /** On MySQL: the page's faults, which inject the lag too. */
  private final @Nullable DemoFaults faults;

  /**
   * How the first replica's applier (standby's replay) lags; on MySQL the faults hold it instead.
   */
  private final Lagging lagging;

  private @Nullable ReplicationLag lag;

  private Demo(
      ConfigurableApplicationContext first,
      ConfigurableApplicationContext second,
      String firstUrl,
      String secondUrl,
      String database,
      @Nullable DemoFaults faults,
      Lagging lagging) {
    this.faults = faults;
    this.lagging = lagging;
    this.first = first;
    this.second = second;
    this.firstUrl = firstUrl;
    this.secondUrl = secondUrl;
    this.database = database;
  }

  /**
   * Creates the schema on the writable node of {@code topology} (a {@link MySqlTopology}, {@link
   * MariaDbTopology} or {@link PostgresTopology}) and starts both instances on it, reading from
   * every replica; {@code firstPort} 0 picks a free port. On MySQL the page offers its faults; on
   * MariaDB and PostgreSQL it offers none, and {@link #injectLag} holds the first replica's applier
   * (the first standby's replay).
   */
  static Demo start(ReplicatedTopology<?> topology, RedisServer redis, int firstPort) {
    return start(topology, redis, firstPort, Map.of());
  }

  /**
   * As {@link #start(ReplicatedTopology, RedisServer, int)}, with {@code overrides} on top of the
   * demo's properties.
   */
  static Demo start(
      ReplicatedTopology<?> topology,
      RedisServer redis,
      int firstPort,
      Map<String, Object> overrides) {
    return start(topology, redis, firstPort, overrides, Map.of(), false);
  }

  /**
   * As {@link #start(ReplicatedTopology, RedisServer, int, Map)}, each instance reaching every
   * database node and Redis through a {@link io.tidemark.testkit.FaultLink} of its own, named
   * {@value #FIRST} or {@value #SECOND} ({@code node.link(Demo.FIRST)}), for network faults between
   * one instance and one server; {@code secondOnly} are properties of the second instance alone.
   */
  static Demo startLinked(
      ReplicatedTopology<?> topology,
      RedisServer redis,
      Map<String, Object> overrides,
      Map<String, Object> secondOnly) {
    return start(topology, redis, 0, overrides, secondOnly, true);
  }

  /** Name of the links of the first instance. */
  static final String FIRST = "first";

  /** Name of the links of the second instance. */
  static final String SECOND = "second";

  private static Demo start(
      ReplicatedTopology<?> topology,
      RedisServer redis,
      int firstPort,
      Map<String, Object> overrides,
      Map<String, Object> secondOnly,
      boolean linked) {
    Database servers = Database.of(topology);
    String db = topology.createDatabase("demo");
    servers.createSchema(db);
    DemoFaults faults =
        topology instanceof MySqlTopology mysql
            ? new DemoFaults(mysql, redis, Clock.systemUTC())
            : null;
    try {
      Map<String, Object> second = servers.properties(redis, db, linked ? SECOND : null);
      second.putAll(secondOnly);
      return start(
          servers.properties(redis, db, linked ? FIRST : null),
          second,
          shared(servers.writable().user(), servers.writable().password(), overrides),
          firstPort,
          db,
          faults,
          servers.lagging());
    } catch (RuntimeException e) {
      if (faults != null) {
        faults.close();
      }
      throw e;
    }
  }

  /** How the first replica's applier (the first standby's replay) lags, held and released. */
  @FunctionalInterface
  private interface Lagging {
    ReplicationLag start(Duration held, Duration released);
  }

  /** The JDBC URL of a database on a node, directly or through the links named {@code link}. */
  @FunctionalInterface
  private interface NodeUrl {
    String of(DatabaseNode<?> node, String database, @Nullable String link);
  }

  /**
   * A topology as the demo uses it: the node it writes to, the nodes it reads from, the URLs its
   * instances reach them by, the orders table's schema, and how the first replica lags.
   */
  private record Database(
      DatabaseNode<?> writable,
      List<? extends DatabaseNode<?>> replicas,
      NodeUrl url,
      List<String> schema,
      Consumer<Duration> awaitCaughtUp,
      Lagging lagging) {

    /** MySQL's and MariaDB's orders table. */
    private static final List<String> MYSQL_SCHEMA =
        List.of(
            "CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(64) NOT"
                + " NULL, status VARCHAR(20) NOT NULL, revision BIGINT NOT NULL, KEY (customer))");

    private static final List<String> POSTGRES_SCHEMA =
        List.of(
            "CREATE TABLE orders (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
                + " customer VARCHAR(64) NOT NULL, status VARCHAR(20) NOT NULL,"
                + " revision BIGINT NOT NULL)",
            "CREATE INDEX ON orders (customer)");

    static Database of(ReplicatedTopology<?> topology) {
      if (topology instanceof MySqlTopology mysql) {
        MySqlNode replica = mysql.replica();
        return new Database(
            mysql.source(),
            mysql.replicas(),
            Demo::testkitUrl,
            MYSQL_SCHEMA,
            mysql::awaitReplicasCaughtUp,
            (held, released) -> ReplicationLag.start(replica, held, released));
      }
      if (topology instanceof MariaDbTopology mariadb) {
        MariaDbNode replica = mariadb.replica();
        return new Database(
            mariadb.source(),
            mariadb.replicas(),
            Demo::mariaDbUrl,
            MYSQL_SCHEMA,
            mariadb::awaitReplicasCaughtUp,
            (held, released) -> ReplicationLag.start(replica, held, released));
      }
      if (topology instanceof PostgresTopology postgres) {
        PostgresNode standby = postgres.standby();
        return new Database(
            postgres.primary(),
            postgres.standbys(),
            Demo::testkitUrl,
            POSTGRES_SCHEMA,
            postgres::awaitStandbysCaughtUp,
            (held, released) -> ReplicationLag.start(standby, held, released));
      }
      throw new IllegalArgumentException(
          "the demo runs on MySQL, MariaDB or PostgreSQL, not " + topology);
    }

    /** Creates the orders table in {@code db} and waits until every replica has it. */
    void createSchema(String db) {
      try (Connection c =
              DriverManager.getConnection(
                  writable.jdbcUrl(db), writable.user(), writable.password());
          Statement s = c.createStatement()) {
        for (String sql : schema) {
          s.execute(sql);
        }
      } catch (SQLException e) {
        throw new IllegalStateException("creating the demo's table on " + writable, e);
      }
      awaitCaughtUp.accept(Duration.ofSeconds(30));
    }

    /** Where an instance reaches the servers: directly, or through the links named {@code link}. */
    Map<String, Object> properties(RedisServer redis, String db, @Nullable String link) {
      Map<String, Object> servers = new LinkedHashMap<>();
      servers.put("spring.datasource.url", url.of(writable, db, link));
      for (int i = 0; i < replicas.size(); i++) {
        servers.put("tidemark.replicas[" + i + "].url", url.of(replicas.get(i), db, link));
      }
      servers.put("tidemark.scope.redis-uri", link == null ? redis.uri() : redis.uriThrough(link));
      return servers;
    }
  }

  /** The testkit's URL: Connector/J's for MySQL, PgJDBC's for PostgreSQL. */
  private static String testkitUrl(DatabaseNode<?> node, String db, @Nullable String link) {
    return link == null ? node.jdbcUrl(db) : node.jdbcUrlThrough(link, db);
  }

  /**
   * MariaDB Connector/J's URL, as an application on MariaDB names its servers (the testkit reaches
   * MariaDB through MySQL's Connector/J).
   */
  private static String mariaDbUrl(DatabaseNode<?> node, String db, @Nullable String link) {
    int port = link == null ? node.port() : node.link(link).port();
    return "jdbc:mariadb://" + node.host() + ":" + port + "/" + db;
  }

  private static Map<String, Object> shared(
      String user, String password, Map<String, Object> overrides) {
    Map<String, Object> shared = new LinkedHashMap<>();
    shared.put("spring.datasource.username", user);
    shared.put("spring.datasource.password", password);
    shared.put("tidemark.cluster", "orders");
    shared.put("tidemark.token.secret", SECRET);
    shared.put("tidemark.read.timeout", "2s");
    shared.put("tidemark.scope.store", "REDIS");
    shared.put("spring.main.banner-mode", "off");
    shared.put("logging.level.root", "WARN");
    shared.putAll(overrides);
    return shared;
  }

  private static Demo start(
      Map<String, Object> firstServers,
      Map<String, Object> secondServers,
      Map<String, Object> shared,
      int firstPort,
      String db,
      @Nullable DemoFaults faults,
      Lagging lagging) {
    int port1 = firstPort == 0 ? freePort() : firstPort;
    int port2 = freePort();
    ConfigurableApplicationContext first =
        instance(
            firstServers,
            shared,
            port1,
            port2,
            faults == null
                ? List.of()
                : List.of(c -> c.getBeanFactory().registerSingleton("demoFaults", faults)));
    try {
      ConfigurableApplicationContext second =
          instance(secondServers, shared, port2, port1, List.of());
      return new Demo(first, second, url(port1), url(port2), db, faults, lagging);
    } catch (RuntimeException e) {
      first.close();
      throw e;
    }
  }

  /**
   * Starts an instance the way one is started against real servers, with arguments only; the {@code
   * initializers} give the page's faults to the instance it is served from.
   */
  private static ConfigurableApplicationContext instance(
      Map<String, Object> servers,
      Map<String, Object> shared,
      int port,
      int peerPort,
      List<ApplicationContextInitializer<ConfigurableApplicationContext>> initializers) {
    Map<String, Object> properties = new LinkedHashMap<>(servers);
    properties.putAll(shared);
    properties.put("server.port", port);
    properties.put("demo.peer-url", url(peerPort));
    return OrdersApplication.start(
        initializers,
        properties.entrySet().stream()
            .map(p -> "--" + p.getKey() + "=" + p.getValue())
            .toArray(String[]::new));
  }

  private static String url(int port) {
    return "http://127.0.0.1:" + port;
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The instance the page is served from; orders are created here. */
  String firstUrl() {
    return firstUrl;
  }

  /** The instance the scenario reads from. */
  String secondUrl() {
    return secondUrl;
  }

  /** The database the orders table is in. */
  String database() {
    return database;
  }

  /**
   * Whether the instances hold the request's EntityManager open until the response, as by default.
   */
  boolean openInView() {
    return !first
        .getBeansOfType(
            org.springframework.orm.jpa.support.OpenEntityManagerInViewInterceptor.class)
        .isEmpty();
  }

  /**
   * The class of the instances' reads: annotated, or for the starter's automatic mode; both, first
   * instance's first, when they differ.
   */
  String reads() {
    String ofFirst = ClassUtils.getUserClass(first.getBean(OrderReads.class)).getSimpleName();
    String ofSecond = ClassUtils.getUserClass(second.getBean(OrderReads.class)).getSimpleName();
    return ofFirst.equals(ofSecond) ? ofFirst : ofFirst + " and " + ofSecond;
  }

  /** The token clock of the instance {@link #FIRST} or {@link #SECOND}. */
  SkewedClock tokenClock(String instance) {
    return (instance.equals(FIRST) ? first : second).getBean(SkewedClock.class);
  }

  /** The token codec the instances share, to read what a token holds. */
  TokenCodec codec() {
    return first.getBean(TokenCodec.class);
  }

  /** Starts the page's background load of {@code clients}, as its Start load button does. */
  void startLoad(int clients) {
    first.getBean(BackgroundLoad.class).start(clients, new Scenario(firstUrl, secondUrl));
  }

  /** Runs the scenario: {@code clients} create on the first instance and read on the second. */
  Scenario.Result run(int clients, boolean tidemark) {
    return new Scenario(firstUrl, secondUrl).run(clients, tidemark);
  }

  /** The faults the page applies, and the replication lag the demo injects; MySQL only. */
  DemoFaults faults() {
    return Objects.requireNonNull(faults, "the page's faults are MySQL's");
  }

  /**
   * Holds the replica's applier (the standby's replay) for {@code held}, then lets it go for {@code
   * released}, over and over, until the demo closes.
   */
  synchronized void injectLag(Duration held, Duration released) {
    if (faults != null) {
      faults.injectLag(held, released);
      return;
    }
    if (lag != null) {
      lag.close();
    }
    lag = lagging.start(held, released);
  }

  @Override
  public synchronized void close() {
    // A fault that holds is undone first, so the instances stop on healthy servers.
    if (faults != null) {
      faults.close();
    }
    if (lag != null) {
      lag.close();
    }
    second.close();
    first.close();
  }

  private static String randomSecret() {
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    return Base64.getEncoder().encodeToString(random);
  }
}
