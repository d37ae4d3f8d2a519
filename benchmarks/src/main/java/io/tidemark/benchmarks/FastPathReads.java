package io.tidemark.benchmarks;

import io.tidemark.Reason;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The reads {@link ReplicaFastPath} and {@link SatisfiedWaitBenchmark} compare, of row 2 on a
 * replica that has it: plain, and through a reader's fast path; and how they take turns.
 */
final class FastPathReads {

  private FastPathReads() {}

  /**
   * Reads {@code row} once through {@code reader}, which so learns that the replica has {@code
   * caughtUp}.
   */
  static void learnCaughtUp(ConsistentReader reader, ReadOptions caughtUp, long row)
      throws SQLException {
    ReadResult<@Nullable Integer> first = reader.read(caughtUp, c -> Cluster.readRow(c, row));
    if (first.value() == null) {
      throw new IllegalStateException("the replica lacks row " + row + ": " + first.record());
    }
  }

  /** Row 2, read on a connection of {@code replicaPool}. */
  static int plain(DataSource replicaPool) throws SQLException {
    try (Connection c = replicaPool.getConnection()) {
      return present(Cluster.readRow(c, 2));
    }
  }

  /** Row 2, read through {@code reader}, which must take its fast path for {@code caughtUp}. */
  static int fastPath(ConsistentReader reader, ReadOptions caughtUp) throws SQLException {
    ReadResult<@Nullable Integer> result = reader.read(caughtUp, c -> Cluster.readRow(c, 2));
    if (result.record().reason() != Reason.REPLICA_CAUGHT_UP) {
      throw new IllegalStateException("not the fast path: " + result.record());
    }
    return present(result.value());
  }

  /** Row 2's value; a missing row fails the run. */
  static int present(@Nullable Integer value) {
    if (value == null) {
      throw new IllegalStateException("row 2 missing on the replica");
    }
    return value;
  }

  /** One of the reads that take turns. */
  interface Read<E extends Exception> {
    int read() throws E;
  }

  /**
   * Runs each of {@code reads} once, one after the other, the one at index {@code turn} first, and
   * returns the time each took, in nanoseconds, at its index.
   */
  @SafeVarargs
  static <E extends Exception> long[] inTurn(int turn, Read<E>... reads) throws E {
    long[] nanos = new long[reads.length];
    for (int i = 0; i < reads.length; i++) {
      int which = (turn + i) % reads.length;
      long started = System.nanoTime();
      reads[which].read();
      nanos[which] = System.nanoTime() - started;
    }
    return nanos;
  }
}
