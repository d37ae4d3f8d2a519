package io.tidemark.jdbc;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The check of a read that joins the transaction open on a source connection instead of running on
 * a connection of its own (see {@link ConsistentReader#checkJoinedTransaction}): no wait can help
 * it, so it either reads after the context's writes or fails.
 */
final class JoinedTransactions {

  private JoinedTransactions() {}

  /** As {@link ConsistentReader#checkJoinedTransaction}, with the reader's {@code lostWrites}. */
  static void check(Connection connection, boolean viewPerStatement, LostWrites lostWrites)
      throws SQLException {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    GtidSet required = context == null ? GtidSet.EMPTY : context.gtids();
    if (required.isEmpty()) {
      return;
    }
    GtidSet visible =
        viewPerStatement ? null : CapturingConnectionHandler.atFirstStatement(connection);
    if (visible != null && !visible.containsAll(required)) {
      throw new IllegalStateException(
          "a read joins a transaction whose read view may predate writes its token names ("
              + required.subtract(visible)
              + "); read before the transaction's first statement, outside it, or in one that"
              + " reads committed data per statement");
    }
    if (!Dialect.of(connection).hasExecuted(connection, required)) {
      throw lostWrites.notOnSource(
          connection,
          required,
          "source",
          Duration.ZERO,
          "the transaction's server has not executed the token: writes were lost");
    }
  }
}
