package io.tidemark.spring.messaging;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.internal.Failures;
import io.tidemark.token.TokenExchange;
import io.tidemark.token.TokenRejectedException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The token rules of messages, whatever the broker: what a message sent from this thread carries,
 * and the context its listener runs in. The Kafka, RabbitMQ and JMS hooks only carry header values
 * between their message types and these rules.
 */
final class MessageTokens {

  private static final Log log = LogFactory.getLog(MessageTokens.class);

  private final TokenExchange exchange;
  private final TidemarkMessagingProperties settings;
  private final Rejections rejections;
  private final AtomicBoolean warnedInTransaction = new AtomicBoolean();

  MessageTokens(
      TokenExchange exchange, TidemarkMessagingProperties settings, Rejections rejections) {
    this.exchange = exchange;
    this.settings = settings;
    this.rejections = rejections;
  }

  /** Name of the Kafka record header and the RabbitMQ message header. */
  String header() {
    return settings.getHeader();
  }

  /** Name of the JMS message property. */
  String jmsProperty() {
    return settings.getJms().getProperty();
  }

  /** Counts the messages whose token did not verify, by technology and reason. */
  @FunctionalInterface
  interface Rejections {
    Rejections NONE = (technology, reason) -> {};

    void rejected(String technology, TokenRejectedException.Check reason);
  }

  /**
   * The header value of a message sent from this thread now, or {@code null} when no context is
   * bound or it has nothing to send. Inside a read-write transaction on a {@code DataSource}, or
   * while a transaction of the unit of work has written and not ended (on another thread, or
   * suspended around this one), the writes the message follows have not committed, so no token can
   * cover them: the message gets a marker that sends its listener's reads to the source. After the
   * commit (an {@code TransactionalEventListener}), the token covers them.
   */
  @Nullable String outgoing() {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    if (context == null) {
      return null;
    }
    if (context.hasUncommittedWrites() || insideWritingTransaction()) {
      if (warnedInTransaction.compareAndSet(false, true)) {
        log.warn(
            "A message was sent inside a read-write database transaction, before its writes"
                + " committed: its token requires the source, so its listener reads from the"
                + " source, and a listener that gets it before the commit does not find them."
                + " Send after the commit (an @TransactionalEventListener) for reads on a"
                + " replica, or in a broker transaction that commits after the database's."
                + " Said once.");
      }
      return exchange.headerValue(exchange.requiringSource(context), context.forwardedTokens());
    }
    return exchange.headerFor(context);
  }

  private static boolean insideWritingTransaction() {
    // After the commit, as an @TransactionalEventListener runs, the transaction is still bound
    // but its synchronization is over.
    if (!TransactionSynchronizationManager.isSynchronizationActive()
        || !TransactionSynchronizationManager.isActualTransactionActive()
        || TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
      return false;
    }
    // A broker's own transaction (Kafka's, a transacted channel) holds no database writes.
    return TransactionSynchronizationManager.getResourceMap().keySet().stream()
        .anyMatch(DataSource.class::isInstance);
  }

  /**
   * A new context, not bound, for the listener of the messages that came with {@code values} (one
   * for a single message, one per message of a batch, {@code null} for a message without the
   * header): the union of their tokens. A token that does not verify (expired after a long queue,
   * signed elsewhere) makes the context dirty, so the listener's reads go to the source, and counts
   * against {@code technology}.
   */
  ConsistencyContext incoming(String technology, List<@Nullable String> values) {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);
    for (String value : values) {
      TokenRejectedException.Check rejected = exchange.receiveInto(context, value);
      if (rejected != null) {
        rejections.rejected(technology, rejected);
      }
    }
    return context;
  }

  /**
   * A new context, not bound, for the listener of a message whose token could not even be read off
   * it: dirty, so its reads go to the source, and counted against {@code technology} as malformed.
   */
  ConsistencyContext unreadable(String technology, Exception cause) {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);
    context.markDirty("a message's token could not be read: " + Failures.nameOf(cause));
    rejections.rejected(technology, TokenRejectedException.Check.MALFORMED);
    return context;
  }
}
