package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.RedisClients;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import io.tidemark.scope.ScopeStoreConfig;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenConfig;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tagged GTIDs ({@code uuid:tag:N}, MySQL 8.3 and later), end to end on the real server: a commit
 * under {@code SET gtid_next = 'AUTOMATIC:<tag>'} is captured, signed, carried through Redis,
 * waited for and compacted; on a server without tags, a token naming a tag is refused before it
 * reaches a replica.
 */
@ExtendWith(TestkitExtension.class)
class TaggedGtidsIT {

  private static final String TAG = "orders_batch";

  private static MySqlTopology topology;
  private static MySqlNode replica;
  private static String db;
  private static HikariDataSource sourcePool;
  private static @Nullable HikariDataSource taggedPool;
  private static HikariDataSource replicaPool;
  private static CapturingDataSource source;
  private static @Nullable CapturingDataSource tagged;
  private static int nextId;

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    replica = topology.replica();
    db = Rows.createTable(topology, "tagged");
    sourcePool = Pools.tracking(topology.source(), db, 2);
    replicaPool = Pools.plain(replica, db, 4);
    source = CapturingDataSource.wrap(sourcePool);
    if (serverKnowsTags()) {
      // Set when the pool opens a connection, so no capture sees the SET itself.
      taggedPool =
          Pools.tracking(topology.source(), db, 2, "SET gtid_next = 'AUTOMATIC:" + TAG + "'");
      tagged = CapturingDataSource.wrap(taggedPool);
    }
  }

  @AfterEach
  void resumeReplication() {
    replica.resumeApplier();
  }

  @AfterAll
  static void closePools() {
    sourcePool.close();
    replicaPool.close();
    if (taggedPool != null) {
      taggedPool.close();
    }
  }

  private static boolean serverKnowsTags() {
    return topology.source().version().atLeast(8, 3, 0);
  }

  @Test
  void taggedCommitIsCapturedSignedStoredWaitedForAndCompacted(RedisServer redis) throws Exception {
    if (!serverKnowsTags()) {
      assertThatThrownBy(() -> topology.source().execute("SET gtid_next = 'AUTOMATIC:" + TAG + "'"))
          .as("MySQL %s has no tagged GTIDs", topology.source().version())
          .hasMessageContaining("Malformed GTID specification");
      return;
    }
    replica.pauseApplier();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      int id = ++nextId;
      Rows.insert(tagged, id, "tagged");
      GtidSet captured = binding.context().gtids();
      String sourceUuid = topology.source().serverUuid();
      assertThat(captured.toString())
          .as("captured by session tracking, not as a superset")
          .matches(sourceUuid + ":" + TAG + ":\\d+");
      assertThat(GtidSet.parse(topology.source().gtidExecuted()).containsAll(captured)).isTrue();

      TokenCodec codec = codec();
      ConsistencyToken token =
          codec.verify(codec.encode(codec.issue("orders", captured)), "orders");
      assertThat(token.gtids()).isEqualTo(captured);

      try (RedisClients clients = new RedisClients()) {
        ScopeStore store = ScopeStore.redis(clients.connect(redis), ScopeStoreConfig.defaults());
        ScopeKey key = ScopeKey.object("batch", Integer.toString(id));
        assertThat(store.merge(key, captured)).isTrue();
        assertThat(store.get(key).gtids()).isEqualTo(captured);
      }

      ConsistentReader reader = Readers.failingAfter(replicaPool, source, Duration.ofSeconds(5));
      CompletableFuture<ReadResult<@Nullable String>> read =
          CompletableFuture.supplyAsync(
              () -> {
                try (ConsistencyContext.Binding reading = ConsistencyContext.open(token.gtids())) {
                  return reader.read(reader.defaults(), c -> Rows.value(c, id));
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      TimeUnit.MILLISECONDS.sleep(300);
      assertThat(read).as("waits while the applier is paused").isNotDone();
      replica.resumeApplier();
      ReadResult<@Nullable String> result = read.get(10, TimeUnit.SECONDS);
      assertThat(result.value()).isEqualTo("tagged");
      assertThat(result.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);

      // Many scattered tagged GTIDs compact to a superset the source has executed.
      GtidSet scattered = captured;
      for (int i = 0; i < 3; i++) {
        // Another client's tagged commit between two of ours leaves a gap in the tag's GNOs.
        topology
            .source()
            .execute(
                "SET gtid_next = 'AUTOMATIC:" + TAG + "'",
                "INSERT INTO `" + db + "`.t VALUES (" + ++nextId + ", 'other')");
        try (ConsistencyContext.Binding more = ConsistencyContext.open()) {
          Rows.insert(tagged, ++nextId, "tagged");
          scattered = scattered.union(more.context().gtids());
        }
      }
      GtidSet executed = GtidSet.parse(topology.source().gtidExecuted());
      GtidSet compacted =
          ConsistencyToken.of("orders", scattered, Instant.now()).compact(executed).gtids();
      assertThat(compacted.containsAll(scattered)).isTrue();
      assertThat(executed.containsAll(compacted)).isTrue();
      assertThat(compacted.intervalCount()).isLessThan(scattered.intervalCount());
    }
  }

  @Test
  void tokenNamingATagTheSourceNeverCommittedIsRefusedBeforeTheReplica() {
    GtidSet tagged =
        GtidSet.parse(topology.source().serverUuid() + ":never_committed_" + nextId + ":1");
    ConsistentReader reader =
        ConsistentReader.builder(replicaPool, source)
            .defaults(ReadOptions.defaults().withPolicy(ReadPolicy.FALLBACK_TO_SOURCE))
            .build();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(tagged)) {
      assertThatThrownBy(() -> reader.read(reader.defaults(), c -> Rows.value(c, 1)))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.TOKEN_REJECTED);
                assertThat(e).hasMessageContaining("tag");
              });
    }
  }

  private static TokenCodec codec() {
    byte[] secret = new byte[KeyRing.MIN_SECRET_LENGTH];
    Arrays.fill(secret, (byte) 7);
    return new TokenCodec(
        TokenConfig.builder(KeyRing.builder().key("k1", secret).active("k1").build()).build());
  }
}
