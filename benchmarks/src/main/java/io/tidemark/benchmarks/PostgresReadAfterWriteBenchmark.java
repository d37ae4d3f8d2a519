package io.tidemark.benchmarks;

import io.tidemark.dialect.WalPosition;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * {@link ReplicaReadAfterWrite} on a PostgreSQL hot standby, whose wait polls the replay position
 * (back to back for a millisecond, then every millisecond; from 19 {@code WAIT FOR LSN}), with one
 * variant more:
 *
 * <ul>
 *   <li>{@code pollReplayThenRead}: the client asks {@code pg_last_wal_replay_lsn()} every
 *       millisecond on a pinned connection, then reads: the plainest polling.
 * </ul>
 *
 * <p>Here a flushed commit sometimes reached the standby only with the next WAL, its walsender not
 * woken (3 of the first 18 000 to 52 000 commits in three runs on 18.6, one in 150 000 on 19rc1,
 * none in 150 000 on 15.18): read on the primary after the 1 s budget. {@code bin/bench --server
 * postgres} runs it.
 */
public class PostgresReadAfterWriteBenchmark extends ReplicaReadAfterWrite {

  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  @Override
  SourceAndReplica start(String prefix) throws SQLException {
    return PostgresCluster.start(prefix);
  }

  @Benchmark
  public int pollReplayThenRead() throws SQLException {
    long lsn = WalPosition.in(required, required.uuids().iterator().next()).lsn();
    long deadline = System.nanoTime() + BUDGET_NANOS;
    try (PreparedStatement ps =
        pinnedReplica.prepareStatement("SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn")) {
      ps.setString(1, WalPosition.text(lsn));
      while (!replayed(ps)) {
        if (System.nanoTime() > deadline) {
          return alwaysSource();
        }
        LockSupport.parkNanos(POLL_NANOS);
      }
    }
    return done(Cluster.readRow(pinnedReplica, id));
  }

  private static boolean replayed(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getBoolean(1);
    }
  }
}
