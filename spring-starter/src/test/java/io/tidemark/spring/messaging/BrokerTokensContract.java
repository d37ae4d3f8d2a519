package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.Reason;
import io.tidemark.spring.Replication;
import io.tidemark.spring.messaging.MessagingApplication.Instances;
import io.tidemark.spring.messaging.MessagingApplication.Send;
import io.tidemark.spring.messaging.MessagingApplication.Tally;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What every broker's messages must do with the token, run on each broker by its subclass: one
 * instance writes and publishes, another instance's listener reads the order under
 * {@code @ReadYourWrites} while the replica's applier is paused.
 */
abstract class BrokerTokensContract {

  /** Marks a message whose listener always fails, so that it ends as a dead letter. */
  static final String DEAD = "dead:";

  /**
   * The database, the instance that writes and publishes, and the instance whose listeners read.
   */
  abstract Instances instances();

  /** The {@code technology} tag of the broker's rejected-token counter. */
  abstract String technology();

  /**
   * A new publishing instance whose broker transaction is synchronized with the database's, so that
   * it commits after it; the caller closes it.
   */
  abstract ConfigurableApplicationContext transactionalProducer();

  /**
   * A new listening instance on a queue of its own, with Tidemark's messaging off for this broker;
   * the caller closes it.
   */
  abstract ConfigurableApplicationContext listenerWithoutTokens();

  @Test
  void aMessageSentAfterItsWriteIsReadOnTheReplicaOnceTheWriteIsThere() {
    Tally tally = MessagingApplication.deliver(instances(), Send.AFTER_WRITE, 4, 100);

    assertThat(tally.messages()).isEqualTo(400);
    assertThat(tally.stale()).isZero();
    assertThat(tally.onReplica()).as(tally.reasons().toString()).isEqualTo(400);
  }

  @Test
  void aMessageSentInsideTheWritesTransactionIsReadOnTheSource() {
    // The listener never gets the message before the order is on the source.
    try (ConfigurableApplicationContext transactional = transactionalProducer()) {
      Tally tally =
          MessagingApplication.deliver(
              instances().publishingWith(transactional), Send.INSIDE_TRANSACTION, 2, 100);

      assertThat(tally.stale()).isZero();
      assertThat(tally.onSource()).as("the marker sends the reads to the source").isEqualTo(200);
    }
  }

  @Test
  void aMessageSentAfterTheCommitIsReadOnTheReplica() {
    Tally tally = MessagingApplication.deliver(instances(), Send.AFTER_COMMIT, 2, 100);

    assertThat(tally.stale()).isZero();
    assertThat(tally.onReplica()).as(tally.reasons().toString()).isEqualTo(200);
  }

  @Test
  void aMessageWhoseTokenDoesNotVerifyIsReadOnTheSourceAndCounted() {
    MessagingApplication.deliverRejected(instances(), technology());
  }

  @Test
  void withoutTokensOnMessagesTheListenerReadsStaleOrders() {
    try (ConfigurableApplicationContext off = listenerWithoutTokens()) {
      Tally tally = MessagingApplication.deliverWithoutTokens(instances().replication(), off);

      assertThat(tally.stale()).as("orders the listener did not find").isPositive();
    }
  }

  /** 300 messages sent {@link Send#TO_BATCH}, all read on the replica, none stale. */
  final Tally deliverToBatch() {
    Tally tally = MessagingApplication.deliver(instances(), Send.TO_BATCH, 3, 100);

    assertThat(tally.messages()).isEqualTo(300);
    assertThat(tally.stale()).isZero();
    assertThat(tally.onReplica()).as(tally.reasons().toString()).isEqualTo(300);
    return tally;
  }

  /**
   * Writes two orders with the replica's applier paused and has {@code sendToRetry} publish them,
   * in the same unit of work, to the listener that fails a message's first delivery: one to be
   * delivered again, one marked {@link #DEAD} to end as a dead letter. Both must be read on the
   * replica, with the token their headers kept.
   */
  final void deliverRetriedAndDead(Consumer<String> sendToRetry) {
    long retried = System.nanoTime();
    long dead = retried + 1;
    writeAndSend(
        instances().producer(),
        () -> {
          sendToRetry.accept(Long.toString(retried));
          sendToRetry.accept(DEAD + dead);
        },
        retried,
        dead);

    for (int i = 0; i < 2; i++) {
      assertNextReadOnTheReplicaWithItsToken(instances().consumer());
    }
  }

  /**
   * Has {@code writer} write the orders {@code ids} in one unit of work while the replica's applier
   * is paused, and {@code send} publish them within it; the applier resumes a little later.
   */
  final void writeAndSend(ConfigurableApplicationContext writer, Runnable send, long... ids) {
    Replication replication = instances().replication();
    MessagingApplication.Orders orders = writer.getBean(MessagingApplication.Orders.class);
    replication.pauseReplica();
    try {
      try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
        for (long id : ids) {
          orders.create(id);
        }
        send.run();
      }
    } finally {
      replication.resumeReplicaAfter(Duration.ofMillis(300));
    }
  }

  /** The next order {@code listener} read was there, on the replica, as its token asked. */
  static void assertNextReadOnTheReplicaWithItsToken(ConfigurableApplicationContext listener) {
    Received.Outcome outcome = listener.getBean(Received.class).next();
    assertThat(outcome.found()).isEqualTo(1);
    assertThat(outcome.dirty()).isFalse();
    assertThat(outcome.reason()).isIn(Reason.REPLICA_AFTER_WAIT, Reason.REPLICA_CAUGHT_UP);
  }
}
