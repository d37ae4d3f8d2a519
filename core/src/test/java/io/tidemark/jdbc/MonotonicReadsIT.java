package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Monotonic reads for a client that never writes: having seen another user's row on one replica, it
 * must not read on a replica that lags behind that and find the row gone. (A row seen on the
 * source: {@link ReadPathContract}, on every database.)
 */
class MonotonicReadsIT {

  private static MySqlTopology topology;
  private static MySqlNode ahead;
  private static MySqlNode behind;
  private static HikariDataSource sourcePool;
  private static HikariDataSource aheadPool;
  private static HikariDataSource behindPool;
  private static String db;
  private static int nextId;

  @BeforeAll
  static void start() {
    topology = MySqlTopology.builder().replicas(2).start();
    ahead = topology.replicas().get(0);
    behind = topology.replicas().get(1);
    db = Rows.createTable(topology, "monotonic");
    sourcePool = Pools.plain(topology.source(), db, 2);
    aheadPool = Pools.plain(ahead, db, 2);
    behindPool = Pools.plain(behind, db, 2);
  }

  @AfterAll
  static void stop() {
    sourcePool.close();
    aheadPool.close();
    behindPool.close();
    topology.close();
  }

  private static ConsistentReader reader(HikariDataSource replica, boolean monotonic) {
    return ConsistentReader.builder(replica, CapturingDataSource.wrap(sourcePool))
        .defaults(
            ReadOptions.defaults()
                .withPolicy(ReadPolicy.FALLBACK_TO_SOURCE)
                .withTimeout(Duration.ofMillis(600))
                .withMonotonic(monotonic))
        .build();
  }

  @Test
  void aClientThatSawARowNeverReadsAStateWithoutIt() throws Exception {
    int id = anotherUserWritesWhileOneReplicaLags();
    try (ConsistencyContext.Binding client = ConsistencyContext.open()) {
      ReadResult<@Nullable String> first = reader(aheadPool, true).read(c -> Rows.value(c, id));
      assertThat(first.value()).isEqualTo("theirs");
      assertThat(first.record().reason()).isEqualTo(Reason.REPLICA_NO_TOKEN);
      GtidSet observed = client.context().gtids();
      assertThat(observed.containsAll(GtidSet.parse(topology.source().gtidExecuted())))
          .as("what the read observed joined the context")
          .isTrue();
      assertThat(observed.namesOnlySourcesOf(GtidSet.parse(topology.source().gtidExecuted())))
          .as("only the cluster's sources")
          .isTrue();

      ReadResult<@Nullable String> next = reader(behindPool, true).read(c -> Rows.value(c, id));

      assertThat(next.value()).as("never back to a state without the row").isEqualTo("theirs");
      assertThat(next.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
    } finally {
      behind.resumeApplier();
    }
  }

  @Test
  void withoutMonotonicReadsTheSecondReadMayGoBack() throws Exception {
    int id = anotherUserWritesWhileOneReplicaLags();
    try (ConsistencyContext.Binding client = ConsistencyContext.open()) {
      assertThat(reader(aheadPool, false).read(c -> Rows.value(c, id)).value()).isEqualTo("theirs");
      assertThat(client.context().gtids().isEmpty()).isTrue();

      assertThat(reader(behindPool, false).read(c -> Rows.value(c, id)).value()).isNull();
    } finally {
      behind.resumeApplier();
    }
  }

  private static int anotherUserWritesWhileOneReplicaLags() {
    behind.pauseApplier();
    int id = ++nextId;
    topology.source().execute("INSERT INTO `" + db + "`.t VALUES (" + id + ", 'theirs')");
    assertThat(ahead.awaitGtidSet(topology.source().gtidExecuted(), Duration.ofSeconds(10)))
        .isTrue();
    return id;
  }
}
