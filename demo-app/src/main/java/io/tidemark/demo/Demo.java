package io.tidemark.demo;

import io.tidemark.testkit.MySqlNode;
import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.RedisServer;
import io.tidemark.testkit.SkewedClock;
import io.tidemark.token.TokenCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of the orders service on one MySQL topology and one Redis, each the other's peer;
 * with the embedded servers, or pointed at real ones by the same properties.
 */
final class Demo implements AutoCloseable {

  /**
   * Signing secret of the demo's instances; a real deployment takes its own from the environment.
   */
  static final String SECRET = "demo-secret-that-is-at-least-32-characters";

  private final ConfigurableApplicationContext first;
  private final ConfigurableApplicationContext second;
  private final String firstUrl;
  private final String secondUrl;
  private final String database;
  private final DemoFaults faults;

  private Demo(
      ConfigurableApplicationContext first,
      ConfigurableApplicationContext second,
      String firstUrl,
      String secondUrl,
      String database,
      DemoFaults faults) {
    this.faults = faults;
    this.first = first;
    this.second = second;
    this.firstUrl = firstUrl;
    this.secondUrl = secondUrl;
    this.database = database;
  }

  /** Creates the schema and starts both instances; {@code firstPort} 0 picks a free port. */
  static Demo start(MySqlTopology topology, RedisServer redis, int firstPort) {
    return start(topology, redis, firstPort, Map.of());
  }

  /**
   * As {@link #start(MySqlTopology, RedisServer, int)}, every replica of the topology configured,
   * with {@code overrides} on top of the demo's properties.
   */
  static Demo start(
      MySqlTopology topology, RedisServer redis, int firstPort, Map<String, Object> overrides) {
    return start(topology, redis, firstPort, overrides, false);
  }

  /**
   * As {@link #start(MySqlTopology, RedisServer, int, Map)}, each instance reaching every MySQL
   * node and Redis through a {@link io.tidemark.testkit.FaultLink} of its own, named {@value
   * #FIRST} or {@value #SECOND} ({@code node.link(Demo.FIRST)}), for network faults between one
   * instance and one server.
   */
  static Demo startLinked(
      MySqlTopology topology, RedisServer redis, Map<String, Object> overrides) {
    return start(topology, redis, 0, overrides, true);
  }

  /** Name of the links of the first instance. */
  static final String FIRST = "first";

  /** Name of the links of the second instance. */
  static final String SECOND = "second";

  private static Demo start(
      MySqlTopology topology,
      RedisServer redis,
      int firstPort,
      Map<String, Object> overrides,
      boolean linked) {
    String db = topology.createDatabase("demo");
    topology
        .source()
        .execute(
            "CREATE TABLE `"
                + db
                + "`.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(64) NOT NULL,"
                + " status VARCHAR(20) NOT NULL, revision BIGINT NOT NULL, KEY (customer))");
    int port1 = firstPort == 0 ? freePort() : firstPort;
    int port2 = freePort();
    Map<String, Object> shared = new LinkedHashMap<>();
    shared.put("spring.datasource.username", topology.source().user());
    shared.put("spring.datasource.password", topology.source().password());
    shared.put("tidemark.cluster", "orders");
    shared.put("tidemark.token.secret", SECRET);
    shared.put("tidemark.read.timeout", "2s");
    shared.put("tidemark.scope.store", "REDIS");
    shared.put("spring.main.banner-mode", "off");
    shared.put("logging.level.root", "WARN");
    shared.putAll(overrides);
    DemoFaults faults = new DemoFaults(topology, redis, Clock.systemUTC());
    ConfigurableApplicationContext first;
    try {
      first =
          instance(
              servers(topology, redis, db, linked ? FIRST : null),
              shared,
              port1,
              port2,
              List.of(c -> c.getBeanFactory().registerSingleton("demoFaults", faults)));
    } catch (RuntimeException e) {
      faults.close();
      throw e;
    }
    try {
      ConfigurableApplicationContext second =
          instance(
              servers(topology, redis, db, linked ? SECOND : null),
              shared,
              port2,
              port1,
              List.of());
      return new Demo(first, second, url(port1), url(port2), db, faults);
    } catch (RuntimeException e) {
      first.close();
      faults.close();
      throw e;
    }
  }

  /** Where an instance reaches the servers: directly, or through the links named {@code link}. */
  private static Map<String, Object> servers(
      MySqlTopology topology, RedisServer redis, String db, @Nullable String link) {
    Map<String, Object> servers = new LinkedHashMap<>();
    servers.put("spring.datasource.url", url(topology.source(), db, link));
    for (int i = 0; i < topology.replicas().size(); i++) {
      servers.put("tidemark.replicas[" + i + "].url", url(topology.replicas().get(i), db, link));
    }
    servers.put("tidemark.scope.redis-uri", link == null ? redis.uri() : redis.uriThrough(link));
    return servers;
  }

  private static String url(MySqlNode node, String db, @Nullable String link) {
    return link == null ? node.jdbcUrl(db) : node.jdbcUrlThrough(link, db);
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

  /** The faults the page applies, and the replication lag the demo injects. */
  DemoFaults faults() {
    return faults;
  }

  @Override
  public void close() {
    // A fault that holds is undone first, so the instances stop on healthy servers.
    faults.close();
    second.close();
    first.close();
  }
}
