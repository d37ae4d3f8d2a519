package io.tidemark.spring.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.spring.Replication;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import io.tidemark.topology.ExecutionHistory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One stack's application, started with the starter on a database of its own on a source and one
 * replica (the testkit's MySQL topology, or a PostgreSQL primary and hot standby shared by the
 * stack tests), with an {@code orders} table; and the write-then-read that every stack test makes
 * against a replica that has not applied the write.
 */
public final class StackApplication implements AutoCloseable {

  private static @Nullable PostgresTopology postgres;

  private final Nodes nodes;
  private final String db;
  private final Replication replication;
  private final ConfigurableApplicationContext context;

  private StackApplication(
      Nodes nodes, String db, Replication replication, ConfigurableApplicationContext context) {
    this.nodes = nodes;
    this.db = db;
    this.replication = replication;
    this.context = context;
  }

  /**
   * Creates a database named after {@code prefix} with {@code orders}, and starts {@code main} with
   * the stack tests' properties and then {@code settings}.
   */
  public static StackApplication start(
      Class<?> main, MySqlTopology topology, String prefix, String... settings) {
    return start(main, new MySqlNodes(topology), prefix, settings);
  }

  /** As {@link #start(Class, MySqlTopology, String, String...)}, on PostgreSQL. */
  public static StackApplication startOnPostgres(Class<?> main, String prefix, String... settings) {
    return start(main, new PostgresNodes(postgres()), prefix, settings);
  }

  private static synchronized PostgresTopology postgres() {
    if (postgres == null) {
      postgres = PostgresTopology.builder().standbys(1).start();
    }
    return postgres;
  }

  private static StackApplication start(
      Class<?> main, Nodes nodes, String prefix, String... settings) {
    String db = nodes.createOrders(prefix);
    Replication replication = nodes.on(db);
    Map<String, Object> properties =
        replication.applicationProperties("stacks", "a-secret-these-tests-share-0123456789");
    // Room for the replica to catch up on a busy machine: a fallback to the source fails the test.
    properties.put("tidemark.read.timeout", "5s");
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(main)
            .web(WebApplicationType.NONE)
            .properties(properties)
            .properties(settings)
            .run();
    return new StackApplication(nodes, db, replication, context);
  }

  public <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  /** The MySQL topology it runs on. */
  public MySqlTopology topology() {
    if (nodes instanceof MySqlNodes mysql) {
      return mysql.topology;
    }
    throw new IllegalStateException("a PostgreSQL stack application has no MySQL topology");
  }

  public String db() {
    return db;
  }

  /**
   * Creates {@code next_number()}, a function that writes (a row of {@code numbers}) and returns
   * the row's number, on MySQL: the kind of write that hides in a query.
   */
  public void createWritingFunction() {
    topology()
        .source()
        .execute(
            "CREATE TABLE `" + db + "`.numbers (n BIGINT AUTO_INCREMENT PRIMARY KEY)",
            "CREATE FUNCTION `"
                + db
                + "`.next_number() RETURNS BIGINT DETERMINISTIC MODIFIES SQL DATA BEGIN"
                + " INSERT INTO numbers VALUES (NULL); RETURN LAST_INSERT_ID(); END");
    topology().awaitReplicasCaughtUp(Duration.ofSeconds(10));
  }

  /** The number {@code next_number()} last gave, read on the source. */
  public String lastNumberOnTheSource() {
    return topology().source().queryString("SELECT MAX(n) FROM `" + db + "`.numbers");
  }

  /** Asserts that the replica committed no transaction of its own: what wrote ran on the source. */
  public void assertNoErrantTransactionOnTheReplica() {
    MySqlNode replica = topology().replica();
    assertThat(replica.gtidExecuted())
        .as("no errant transaction on the replica")
        .doesNotContain(replica.serverUuid());
  }

  /**
   * A read's value, what the read path recorded while it ran (newest first), and on MySQL the waits
   * the replica received meanwhile, as its general log shows them ({@code null} on PostgreSQL).
   */
  public record Read<T>(T value, List<ExecutionRecord> records, @Nullable List<String> waits) {

    /**
     * Asserts that it was one read, on the replica once that had waited for the write; on MySQL,
     * that the wait went with the read's first query, in one round trip (the server logs each
     * statement of a text apart, the wait's with the ';' after it).
     */
    public Read<T> waitedOnTheReplica() {
      assertThat(records).as("reads of the read path").hasSize(1);
      ExecutionRecord read = records.get(0);
      assertThat(read.role()).as(read.toString()).isEqualTo(NodeRole.REPLICA);
      assertThat(read.reason()).as(read.toString()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      if (waits != null) {
        assertThat(waits)
            .as("waits sent, each with the query after it")
            .isNotEmpty()
            .allSatisfy(wait -> assertThat(wait).endsWith(";"));
      }
      return this;
    }
  }

  /**
   * Writes with the replica's applier paused and checks that the replica lacks the row, then reads
   * while the applier resumes 300 ms later; write and read share one consistency context, as in one
   * request. {@code write} returns the order's id, {@code read} reads it back.
   */
  public <T> Read<T> readAfterWrite(LongSupplier write, LongFunction<T> read) {
    ExecutionHistory history = context.getBean(ExecutionHistory.class);
    replication.pauseReplica();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = write.getAsLong();
      assertThat(binding.context().gtids().isEmpty())
          .as("the write's position was captured")
          .isFalse();
      assertThat(replication.replicaHasOrder(id))
          .as("a read on the replica without the wait would miss the write")
          .isFalse();
      int before = history.recent().size();
      String logged = nodes.logStatements();
      CompletableFuture<Void> resume = replication.resumeReplicaAfter(Duration.ofMillis(300));
      try {
        T value = read.apply(id);
        List<ExecutionRecord> recent = history.recent();
        return new Read<>(
            value,
            List.copyOf(recent.subList(0, recent.size() - before)),
            nodes.waitsSince(logged));
      } finally {
        resume.join();
      }
    } finally {
      replication.resumeReplica();
    }
  }

  /** Whether the replica has applied order {@code id}, asked on it directly. */
  public boolean replicaHas(long id) {
    return replication.replicaHasOrder(id);
  }

  @Override
  public void close() {
    context.close();
  }

  /** The source and the replica: their databases, and what the stack tests look up on them. */
  private interface Nodes {
    /** A new database with an empty {@code orders} table, on the replica too. */
    String createOrders(String prefix);

    /**
     * The source and the replica on {@code db}; never closed, as the topology under it serves every
     * stack test.
     */
    Replication on(String db);

    /** Starts logging the replica's statements, if it can; returns from when. */
    String logStatements();

    /** The waits the replica received since {@code since}, logging stopped; {@code null}: none. */
    @Nullable List<String> waitsSince(String since);
  }

  private record MySqlNodes(MySqlTopology topology) implements Nodes {
    @Override
    public String logStatements() {
      MySqlNode replica = topology.replica();
      replica.execute("SET GLOBAL log_output = 'TABLE'", "SET GLOBAL general_log = 'ON'");
      return replica.queryString("SELECT NOW(6)");
    }

    @Override
    public List<String> waitsSince(String since) {
      MySqlNode replica = topology.replica();
      replica.execute("SET GLOBAL general_log = 'OFF'");
      List<String> waits = new ArrayList<>();
      try (Connection c = replica.openConnection();
          PreparedStatement ps =
              c.prepareStatement(
                  "SELECT CONVERT(argument USING utf8mb4) FROM mysql.general_log"
                      + " WHERE command_type = 'Query' AND event_time >= ?"
                      + " AND argument LIKE 'SELECT /*+ MAX_EXECUTION_TIME(%'"
                      + " ORDER BY event_time")) {
        ps.setString(1, since);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            waits.add(rs.getString(1));
          }
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      return waits;
    }

    @Override
    public String createOrders(String prefix) {
      String db = topology.createDatabase(prefix);
      topology
          .source()
          .execute(
              "CREATE TABLE `"
                  + db
                  + "`.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                  + " customer VARCHAR(40) NOT NULL)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      return db;
    }

    @Override
    public Replication on(String db) {
      return Replication.mysql(topology, db);
    }
  }

  private record PostgresNodes(PostgresTopology topology) implements Nodes {
    @Override
    public String logStatements() {
      return "";
    }

    @Override
    public @Nullable List<String> waitsSince(String since) {
      return null;
    }

    @Override
    public String createOrders(String prefix) {
      String db = topology.createDatabase(prefix);
      try (Connection c = connect(topology.primary(), db);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE orders (id bigserial PRIMARY KEY, customer varchar(40) NOT NULL)");
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
      return db;
    }

    @Override
    public Replication on(String db) {
      return Replication.postgres(topology, db);
    }

    private static Connection connect(PostgresNode node, String db) throws SQLException {
      return DriverManager.getConnection(node.jdbcUrl(db), node.user(), node.password());
    }
  }
}
