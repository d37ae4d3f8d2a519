package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.TidemarkException;
import io.tidemark.dialect.Dialect;
import io.tidemark.internal.Failures;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * Capture for one check-out of a source connection: every GTID the connection commits is merged
 * into the context that was current when it was checked out.
 *
 * <p>With session tracking the server reports the GTID in the commit's OK packet and the driver
 * hands it over while reading that packet, before anything else can run on the connection. When a
 * write committed and no GTID came (tracking off, or reset by the pool, or PostgreSQL, which
 * reports nothing), the server's position is read on the same connection instead ({@link
 * Dialect#committed}): a superset, so reads may wait longer but never miss the write. When even
 * that fails the context turns dirty.
 */
final class CaptureSession {

  /** Counters shared by all sessions of one data source. */
  static final class Counters {
    final LongAdder tracked = new LongAdder();
    final LongAdder queried = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder unscoped = new LongAdder();

    CapturingDataSource.Stats snapshot() {
      return new CapturingDataSource.Stats(
          tracked.sum(), queried.sum(), failed.sum(), unscoped.sum());
    }
  }

  private final Connection connection;
  private final PhysicalConnection physical;
  private final ConsistencyContext context;
  private final Counters counters;
  private boolean wroteInTransaction;
  private boolean gtidReported;
  private boolean readOnly;
  private boolean ownSynchronousCommit;
  private @Nullable GtidSet atFirstStatement;

  CaptureSession(
      Connection connection,
      PhysicalConnection physical,
      ConsistencyContext context,
      Counters counters)
      throws SQLException {
    this.connection = connection;
    this.physical = physical;
    this.context = context;
    this.counters = counters;
    physical.enableGtidTracking(connection);
    physical.routeGtidsTo(this::onReportedGtids);
  }

  private void onReportedGtids(String text) {
    try {
      context.committed(GtidSet.parse(text));
      gtidReported = true;
      counters.tracked.increment();
    } catch (TidemarkException e) {
      fail("server reported an unreadable GTID set: " + e.getMessage());
    }
  }

  /** The text of a statement about to run or be batched. */
  void statementText(String sql) {
    if (mentionsSynchronousCommit(sql)) {
      ownSynchronousCommit = true;
    }
  }

  /** Before a statement runs; returns whether it runs in autocommit, committing as it runs. */
  boolean beforeStatement() throws SQLException {
    gtidReported = false;
    boolean autoCommit = connection.getAutoCommit();
    if (atFirstStatement == null && !autoCommit) {
      atFirstStatement = context.gtids();
    }
    return autoCommit;
  }

  /**
   * The context's GTIDs when the open transaction ran its first statement, all committed before its
   * read view was taken, so all visible in it; {@code null} outside a transaction or before its
   * first statement, when the next statement sees every commit made so far.
   */
  @Nullable GtidSet atFirstStatement() {
    return atFirstStatement;
  }

  /**
   * After a statement ran; {@code mayHaveWritten} is false only for statements that cannot write
   * (queries, and with tracking on, statements that returned rows).
   */
  void afterStatement(boolean mayHaveWritten) throws SQLException {
    if (!mayHaveWritten) {
      return;
    }
    if (connection.getAutoCommit()) {
      if (!gtidReported) {
        queryExecutedSet();
      }
      ownSynchronousCommit = false;
    } else {
      wroteInTransaction(true);
    }
  }

  /** Marks whether the open transaction wrote, and tells the context when that changes. */
  private void wroteInTransaction(boolean wrote) {
    if (wrote != wroteInTransaction) {
      wroteInTransaction = wrote;
      if (wrote) {
        context.transactionWrote();
      } else {
        context.transactionEnded();
      }
    }
  }

  /**
   * Whether a statement that returned rows may still have written, so needs a capture: only
   * tracking would have told, unless the connection was made read-only through this proxy and the
   * server refuses every write on it.
   */
  boolean rowsMayHideWrites() {
    return !readOnly && !physical.tracksGtids();
  }

  /** The connection was made read-only, or writable again, through its proxy. */
  void readOnly(boolean readOnly) {
    this.readOnly = readOnly;
  }

  void beforeCommit() {
    gtidReported = false;
  }

  void afterCommit() {
    if (wroteInTransaction && !gtidReported) {
      queryExecutedSet();
    }
    endTransaction();
  }

  private void endTransaction() {
    wroteInTransaction(false);
    atFirstStatement = null;
    ownSynchronousCommit = false;
  }

  /**
   * Whether {@code sql} may set PostgreSQL's {@code synchronous_commit} for its transaction ({@code
   * SET LOCAL}, {@code set_config(..., true)}): its commit may then return before its WAL is
   * flushed. A function that sets it inside is not seen.
   */
  static boolean mentionsSynchronousCommit(String sql) {
    String name = "synchronous_commit";
    for (int i = 0; i + name.length() <= sql.length(); i++) {
      if (sql.regionMatches(true, i, name, 0, name.length())) {
        return true;
      }
    }
    return false;
  }

  /**
   * A commit that threw may or may not have committed: reads must not trust the token. The reason
   * names the failure without its message, which may quote rows (a unique violation's key).
   */
  void commitFailed(Throwable failure) {
    endTransaction();
    fail("a commit failed and its outcome is unknown: " + Failures.nameOf(failure));
  }

  /**
   * After a rollback. A transaction can end without {@code commit()}: DDL commits implicitly, and
   * so does {@code COMMIT} sent as SQL text. With tracking the server reported those commits as
   * they happened; without it, whatever may have been written is captured now (a superset).
   */
  void afterRollback() {
    if (wroteInTransaction && !physical.tracksGtids()) {
      queryExecutedSet();
    }
    endTransaction();
  }

  /** When the connection goes back to the pool, for the same reason as {@link #afterRollback}. */
  void close() {
    afterRollback();
    physical.routeGtidsTo(null);
  }

  private void queryExecutedSet() {
    if (physical.tracksGtids()) {
      // The server should have reported a GTID; if session state was reset (a pool's
      // COM_RESET_CONNECTION, a reconnect), turn tracking on again for the next commits.
      physical.renewGtidTracking(connection);
    }
    try {
      context.committed(Dialect.of(connection).committed(connection, ownSynchronousCommit));
      counters.queried.increment();
    } catch (SQLException e) {
      fail("could not read the source's position after a commit: " + Failures.nameOf(e));
    } catch (TidemarkException e) {
      fail("could not read the source's position after a commit: " + e.getMessage());
    }
  }

  private void fail(String because) {
    counters.failed.increment();
    context.markDirty(because);
  }
}
