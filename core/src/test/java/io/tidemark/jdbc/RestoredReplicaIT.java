package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A replica restored from an older snapshot keeps its {@code server_uuid} but has less than it had:
 * what the read path learned about it before must not let a read skip the wait.
 */
@ExtendWith(TestkitExtension.class)
class RestoredReplicaIT {

  private static MySqlNode replica;
  private static HikariDataSource sourcePool;
  private static HikariDataSource replicaPool;
  private static CapturingDataSource source;

  @BeforeAll
  static void start(MySqlTopology topology) {
    replica = topology.replica();
    String db = Rows.createTable(topology, "restored");
    sourcePool = Pools.tracking(topology.source(), db, 2);
    replicaPool = Pools.plain(replica, db, 4);
    source = CapturingDataSource.wrap(sourcePool);
  }

  @AfterAll
  static void close() {
    replica.delayApplier(Duration.ZERO);
    sourcePool.close();
    replicaPool.close();
  }

  @Test
  void aReadAfterTheReplicaWasRestoredWaitsInsteadOfTrustingWhatItKnew() throws Exception {
    MySqlNode.DataSnapshot snapshot = replica.snapshotWithApplierHeld();
    ConsistentReader reader = Readers.failingAfter(replicaPool, source, Duration.ofMillis(500));
    GtidSet required;
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      Rows.insert(source, 1, "v1");
      required = binding.context().gtids();
      assertThat(reader.read(c -> Rows.value(c, 1)).value()).isEqualTo("v1");
      ReadResult<@Nullable String> known = reader.read(c -> Rows.value(c, 1));
      assertThat(known.record().reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);
    }

    replica.restore(snapshot);
    List<String> outcomes = new ArrayList<>();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(required)) {
      // The pool's connections died with the server: the first reads find that out.
      for (int i = 0; i < 6; i++) {
        try {
          ReadResult<@Nullable String> read = reader.read(c -> Rows.value(c, 1));
          outcomes.add(read.record().reason() + " " + read.value());
        } catch (ConsistentReadException e) {
          outcomes.add(e.reason().name());
        }
      }
    } finally {
      replica.delayApplier(Duration.ZERO);
    }

    assertThat(outcomes).as("never served without the row").noneMatch(o -> o.endsWith(" null"));
    assertThat(outcomes).contains(Reason.WAIT_TIMEOUT.name());
    assertThat(replica.awaitGtidSet(required.toString(), Duration.ofSeconds(30))).isTrue();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(required)) {
      assertThat(reader.read(c -> Rows.value(c, 1)).value()).isEqualTo("v1");
    }
  }
}
