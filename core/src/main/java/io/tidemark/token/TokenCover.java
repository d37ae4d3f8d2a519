package io.tidemark.token;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Issues this cluster's token for a context so that it covers every write of the context: its GTIDs
 * while it is clean and within the codec's limits, else the source's {@code gtid_executed} read at
 * that moment, else a marker that requires the source.
 *
 * @param codec signs the tokens
 * @param cluster whose tokens they are
 * @param headerName the header's name, for log lines
 * @param coverTimeout how long the source is asked at most
 * @param source reads the source's executed set
 */
record TokenCover(
    TokenCodec codec,
    String cluster,
    String headerName,
    Duration coverTimeout,
    TokenExchange.SourceExecuted source) {

  // Under the exchange's name: its warnings are the exchange's, wherever the code sits.
  private static final System.Logger LOG = System.getLogger(TokenExchange.class.getName());

  /**
   * This cluster's signed token for {@code context}: one that covers every write of the context,
   * or, when the source cannot be asked for one, a marker that requires the source; {@code null}
   * only for a clean context without GTIDs and without writes reported lost (a token naming only
   * those replaces the client's, which would require them still). The source is asked within the
   * cover timeout and what is left of the context's deadline, if any: an answer is not held past
   * it.
   */
  @Nullable String token(@Nullable ConsistencyContext context) {
    if (context == null
        || (context.gtids().isEmpty() && !context.isDirty() && context.lost().isEmpty())) {
      return null;
    }
    GtidSet gtids = context.gtids();
    if (!context.isDirty()) {
      try {
        return codec.encode(codec.issue(cluster, gtids).withLost(context.lost()));
      } catch (TokenOverflowException e) {
        LOG.log(Level.DEBUG, () -> "Compacting a token over the limits: " + e.getMessage());
      }
    }
    String problem;
    try {
      Deadline deadline = context.deadline();
      Duration timeout =
          deadline == null || deadline.remaining().compareTo(coverTimeout) > 0
              ? coverTimeout
              : deadline.remaining();
      if (timeout.isNegative() || timeout.isZero()) {
        throw new SQLException("the deadline has passed");
      }
      GtidSet executed = source.read(timeout);
      // Read after every commit of the context, so it holds those that escaped capture too.
      GtidSet covered = context.isDirty() ? gtids.union(executed) : gtids;
      return codec.encode(codec.issue(cluster, covered).compact(executed).withLost(context.lost()));
    } catch (SQLException | RuntimeException e) {
      problem = e.getMessage();
    }
    LOG.log(
        Level.WARNING,
        "The "
            + headerName
            + " token of cluster "
            + cluster
            + " requires the source: "
            + (context.isDirty() ? context.dirtyBecause() : "it is over the limits")
            + ", and the source could not be asked for a covering set ("
            + problem
            + ")");
    return requiringSource(context);
  }

  /**
   * This cluster's signed marker for {@code context} that {@linkplain
   * ConsistencyToken#requiresSource() requires the source}: for what no covering set can be known
   * of yet, such as a message sent before the write it follows has committed.
   */
  String requiringSource(ConsistencyContext context) {
    try {
      return codec.encode(
          codec.issue(cluster, context.gtids()).withLost(context.lost()).requiringSource());
    } catch (TokenOverflowException e) {
      return codec.encode(codec.issue(cluster, GtidSet.EMPTY).requiringSource());
    }
  }
}
