package io.tidemark.spring.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.testkit.MySqlTopology;
import io.tidemark.topology.ExecutionHistory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One stack's application, started with the starter on a database of its own on the testkit's
 * topology (a source and one replica), with an {@code orders} table; and the write-then-read that
 * every stack test makes against a replica that has not applied the write.
 */
public final class StackApplication implements AutoCloseable {

  private final MySqlTopology topology;
  private final String db;
  private final ConfigurableApplicationContext context;

  private StackApplication(
      MySqlTopology topology, String db, ConfigurableApplicationContext context) {
    this.topology = topology;
    this.db = db;
    this.context = context;
  }

  /**
   * Creates a database named after {@code prefix} with {@code orders}, and starts {@code main} with
   * the stack tests' properties and then {@code settings}.
   */
  public static StackApplication start(
      Class<?> main, MySqlTopology topology, String prefix, String... settings) {
    String db = topology.createDatabase(prefix);
    topology
        .source()
        .execute(
            "CREATE TABLE `"
                + db
                + "`.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                + " customer VARCHAR(40) NOT NULL)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    Map<String, Object> properties = new TreeMap<>();
    properties.put("spring.datasource.url", topology.source().jdbcUrl(db));
    properties.put("spring.datasource.username", topology.source().user());
    properties.put("spring.datasource.password", topology.source().password());
    properties.put("spring.datasource.hikari.maximum-pool-size", "4");
    properties.put("tidemark.cluster", "stacks");
    properties.put("tidemark.token.secret", "a-secret-these-tests-share-0123456789");
    properties.put("tidemark.replicas[0].name", "replica-1");
    properties.put("tidemark.replicas[0].url", topology.replica().jdbcUrl(db));
    properties.put("tidemark.topology.refresh-interval", "200ms");
    // Room for the replica to catch up on a busy machine: a fallback to the source fails the test.
    properties.put("tidemark.read.timeout", "5s");
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(main)
            .web(WebApplicationType.NONE)
            .properties(properties)
            .properties(settings)
            .run();
    return new StackApplication(topology, db, context);
  }

  public <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  public MySqlTopology topology() {
    return topology;
  }

  public String db() {
    return db;
  }

  /** A read's value, and what the read path recorded while it ran (newest first). */
  public record Read<T>(T value, List<ExecutionRecord> records) {

    /** Asserts that it was one read, on the replica once that had waited for the write. */
    public Read<T> waitedOnTheReplica() {
      assertThat(records).as("reads of the read path").hasSize(1);
      ExecutionRecord read = records.get(0);
      assertThat(read.role()).as(read.toString()).isEqualTo(NodeRole.REPLICA);
      assertThat(read.reason()).as(read.toString()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
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
    topology.replica().pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      long id = write.getAsLong();
      assertThat(binding.context().gtids().isEmpty()).as("the write's GTID was captured").isFalse();
      assertThat(replicaHas(id))
          .as("a read on the replica without the wait would miss the write")
          .isFalse();
      int before = history.recent().size();
      CompletableFuture<Void> resume =
          topology.replica().resumeApplierAfter(Duration.ofMillis(300));
      try {
        T value = read.apply(id);
        List<ExecutionRecord> recent = history.recent();
        return new Read<>(value, List.copyOf(recent.subList(0, recent.size() - before)));
      } finally {
        resume.join();
      }
    } finally {
      topology.replica().resumeApplier();
    }
  }

  /** Whether the replica has applied order {@code id}, asked on it directly. */
  public boolean replicaHas(long id) {
    String count =
        topology.replica().queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id);
    return !"0".equals(count);
  }

  @Override
  public void close() {
    context.close();
  }
}
