package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Prints the read path's figures on the real servers: how long a read right after a write waits,
 * what a satisfied wait costs over {@code SELECT 1}, and how many waits the fast path skips. It
 * asserts only correctness; timing targets belong to the benchmarks.
 */
@ExtendWith(TestkitExtension.class)
class ReadPathFiguresIT {

  private static final int WRITES = 300;
  private static final int ROUND_TRIPS = 1000;

  @Test
  void measuresWaitsAfterWritesAndTheCostOfASatisfiedWait(MySqlTopology topology) throws Exception {
    String db = topology.createDatabase("figures");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    try (HikariDataSource sourcePool = Pools.tracking(topology.source(), db, 2);
        HikariDataSource replicaPool = Pools.plain(topology.replica(), db, 2)) {
      CapturingDataSource source = CapturingDataSource.wrap(sourcePool);
      ConsistentReader reader =
          ConsistentReader.builder(replicaPool, source)
              .defaults(ReadOptions.defaults().withPolicy(ReadPolicy.FAIL))
              .build();
      long[] firstReadNanos = new long[WRITES];
      Map<Reason, Integer> reasons = new EnumMap<>(Reason.class);
      int skipped = 0;
      for (int i = 0; i < WRITES; i++) {
        try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
          try (Connection c = source.getConnection()) {
            c.createStatement().executeUpdate("INSERT INTO t VALUES (" + i + ")");
          }
          int id = i;
          ReadResult<Boolean> first = reader.read(c -> exists(c, id));
          ReadResult<Boolean> second = reader.read(c -> exists(c, id));
          assertThat(first.value()).isTrue();
          assertThat(second.value()).isTrue();
          firstReadNanos[i] = first.record().waited().toNanos();
          reasons.merge(first.record().reason(), 1, Integer::sum);
          if (second.record().reason() == Reason.REPLICA_CAUGHT_UP) {
            skipped++;
          }
        }
      }
      Arrays.sort(firstReadNanos);
      System.out.printf(
          "figures: wait of a read right after its write (%d writes): p50 %.3f ms, p99 %.3f ms,"
              + " max %.3f ms; first reads by reason %s%n",
          WRITES,
          firstReadNanos[WRITES / 2] / 1e6,
          firstReadNanos[WRITES * 99 / 100] / 1e6,
          firstReadNanos[WRITES - 1] / 1e6,
          reasons);
      System.out.printf(
          "figures: repeated reads of a known token that skipped the wait: %d of %d"
              + " (one round trip saved each)%n",
          skipped, WRITES);
      assertThat(skipped).isEqualTo(WRITES);

      try (Connection c = replicaPool.getConnection()) {
        String executed = topology.replica().gtidExecuted();
        GtidSet required = GtidSet.parse(executed);
        long[] selectOne = new long[ROUND_TRIPS];
        long[] satisfiedWait = new long[ROUND_TRIPS];
        for (int i = 0; i < ROUND_TRIPS; i++) {
          selectOne[i] = time(c, "SELECT 1", null, 1);
          satisfiedWait[i] =
              time(c, "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1)", required.toString(), 0);
        }
        Arrays.sort(selectOne);
        Arrays.sort(satisfiedWait);
        System.out.printf(
            "figures: pinned connection, %d each: SELECT 1 p50 %.1f us p99 %.1f us;"
                + " satisfied WAIT_FOR_EXECUTED_GTID_SET p50 %.1f us p99 %.1f us;"
                + " extra p50 %.1f us%n",
            ROUND_TRIPS,
            selectOne[ROUND_TRIPS / 2] / 1e3,
            selectOne[ROUND_TRIPS * 99 / 100] / 1e3,
            satisfiedWait[ROUND_TRIPS / 2] / 1e3,
            satisfiedWait[ROUND_TRIPS * 99 / 100] / 1e3,
            (satisfiedWait[ROUND_TRIPS / 2] - selectOne[ROUND_TRIPS / 2]) / 1e3);
      }
    }
  }

  private static boolean exists(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM t WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static long time(Connection c, String sql, @Nullable String parameter, int expected)
      throws SQLException {
    long started = System.nanoTime();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      if (parameter != null) {
        ps.setString(1, parameter);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(expected);
      }
    }
    return System.nanoTime() - started;
  }
}
