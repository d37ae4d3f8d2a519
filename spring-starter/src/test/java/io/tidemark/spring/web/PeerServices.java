package io.tidemark.spring.web;

import io.tidemark.ExecutionRecord;
import io.tidemark.GtidSet;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.token.TokenCodec;
import io.tidemark.topology.ExecutionHistory;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.client.RestClient;

/**
 * Instances of a service on one MySQL cluster, with the whole starter, that call a peer instance:
 * their database, their start and stop, and requests to them over HTTP.
 */
final class PeerServices {

  static final String NAME = "Consistency-Token";

  private static final HttpClient http = HttpClient.newHttpClient();

  private PeerServices() {}

  /**
   * A new database {@code name}, with {@code ddl} run on the source ({@code {db}} standing for the
   * database) and applied by the replicas.
   */
  static String database(MySqlTopology topology, String name, String... ddl) {
    String db = topology.createDatabase(name);
    topology.source().execute(ddl(db, ddl));
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
    return db;
  }

  private static String[] ddl(String db, String... statements) {
    String[] inDb = new String[statements.length];
    for (int i = 0; i < statements.length; i++) {
      inDb[i] = statements[i].replace("{db}", "`" + db + "`");
    }
    return inDb;
  }

  /**
   * Starts {@code service} as instance {@code name} on a random port, on {@code db} with the tests'
   * token secret and {@code settings}, calling {@code peer} (none where null).
   */
  static ConfigurableApplicationContext start(
      Class<?> service,
      MySqlTopology topology,
      String db,
      String name,
      @Nullable String peer,
      String... settings) {
    return new SpringApplicationBuilder(service)
        .properties(
            "spring.application.name=" + name,
            "spring.main.banner-mode=off",
            "server.port=0",
            "spring.datasource.url=" + topology.source().jdbcUrl(db),
            "spring.datasource.username=" + topology.source().user(),
            "spring.datasource.password=" + topology.source().password(),
            "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db),
            "tidemark.token.secret=" + TestTokens.SECRET,
            "peer.url=" + (peer == null ? "" : peer))
        .properties(settings)
        .run();
  }

  /** Closes the instances, where they were started. */
  static void stop(@Nullable Peers peers) {
    if (peers != null) {
      peers.caller().close();
      peers.callee().close();
    }
  }

  /** Two instances of one service: the caller, whose peer is the callee. */
  record Peers(ConfigurableApplicationContext caller, ConfigurableApplicationContext callee) {

    /** Starts the callee, then the caller, each as {@link PeerServices#start} starts it. */
    static Peers start(Class<?> service, MySqlTopology topology, String db, String... settings) {
      ConfigurableApplicationContext callee =
          PeerServices.start(service, topology, db, "callee", null, settings);
      try {
        return new Peers(
            PeerServices.start(service, topology, db, "caller", url(callee), settings), callee);
      } catch (RuntimeException e) {
        callee.close();
        throw e;
      }
    }
  }

  /** The GTIDs of the cluster's token in a header value signed with the tests' secret. */
  static GtidSet verified(String header) {
    TokenCodec codec = TestTokens.codec();
    return codec.verify(codec.parseHeader(header), "default").orElseThrow().gtids();
  }

  /** Sends {@code method} to {@code url}, with {@code token} in the header where not null. */
  static HttpResponse<String> send(String method, String url, @Nullable String token)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      request.header(NAME, token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static int port(ConfigurableApplicationContext context) {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  static String url(ConfigurableApplicationContext context) {
    return "http://localhost:" + port(context);
  }

  /** A service's application: Boot's auto-configuration, with the service's {@link Reads}. */
  @Target(ElementType.TYPE)
  @Retention(RetentionPolicy.RUNTIME)
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(Reads.class)
  @interface Application {}

  /** A service's reads of its database, under {@code @ReadYourWrites}. */
  static class Reads {
    private final JdbcTemplate jdbc;

    Reads(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    /** The first column of the first row {@code sql} finds for {@code id}, as text. */
    @ReadYourWrites
    public Optional<String> first(String sql, int id) {
      return jdbc.query(sql, (rs, i) -> rs.getString(1), id).stream().findFirst();
    }
  }

  /**
   * What the endpoints of a service use: its database, its peer, its reads, and their history;
   * injected, so that each service's endpoints declare only their own.
   */
  abstract static class Endpoints {
    @Autowired JdbcTemplate jdbc;
    @Autowired RestClient peer;
    @Autowired Reads reads;
    @Autowired private ExecutionHistory history;

    /** Where the last read went and why: "replica REPLICA_AFTER_WAIT". */
    String lastRead() {
      ExecutionRecord last = history.recent().get(0);
      return last.role().label() + " " + last.reason();
    }
  }
}
