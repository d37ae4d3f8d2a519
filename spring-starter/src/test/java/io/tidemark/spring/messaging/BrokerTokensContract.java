package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.Replication;
import io.tidemark.spring.messaging.MessagingApplication.Send;
import io.tidemark.spring.messaging.MessagingApplication.Tally;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What every broker's messages must do with the token, run on each broker by its subclass: one
 * instance writes and publishes, another instance's listener reads the order under
 * {@code @ReadYourWrites} while the replica's applier is paused.
 */
abstract class BrokerTokensContract {

  abstract Replication replication();

  /** The instance that writes and publishes. */
  abstract ConfigurableApplicationContext producer();

  /** The instance whose listeners read. */
  abstract ConfigurableApplicationContext consumer();

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
    Tally tally =
        MessagingApplication.deliver(
            replication(), producer(), consumer(), Send.AFTER_WRITE, 4, 100);

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
              replication(), transactional, consumer(), Send.INSIDE_TRANSACTION, 2, 100);

      assertThat(tally.stale()).isZero();
      assertThat(tally.onSource()).as("the marker sends the reads to the source").isEqualTo(200);
    }
  }

  @Test
  void aMessageSentAfterTheCommitIsReadOnTheReplica() {
    Tally tally =
        MessagingApplication.deliver(
            replication(), producer(), consumer(), Send.AFTER_COMMIT, 2, 100);

    assertThat(tally.stale()).isZero();
    assertThat(tally.onReplica()).as(tally.reasons().toString()).isEqualTo(200);
  }

  @Test
  void aMessageWhoseTokenDoesNotVerifyIsReadOnTheSourceAndCounted() {
    MessagingApplication.deliverRejected(replication(), producer(), consumer(), technology());
  }

  @Test
  void withoutTokensOnMessagesTheListenerReadsStaleOrders() {
    try (ConfigurableApplicationContext off = listenerWithoutTokens()) {
      Tally tally = MessagingApplication.deliverWithoutTokens(replication(), off);

      assertThat(tally.stale()).as("orders the listener did not find").isPositive();
    }
  }

  /** 300 messages sent {@link Send#TO_BATCH}, all read on the replica, none stale. */
  final Tally deliverToBatch() {
    Tally tally =
        MessagingApplication.deliver(replication(), producer(), consumer(), Send.TO_BATCH, 3, 100);

    assertThat(tally.messages()).isEqualTo(300);
    assertThat(tally.stale()).isZero();
    assertThat(tally.onReplica()).as(tally.reasons().toString()).isEqualTo(300);
    return tally;
  }
}
