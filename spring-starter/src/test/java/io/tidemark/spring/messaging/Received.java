package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.Reason;
import io.tidemark.topology.ExecutionHistory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * The consumer's side of {@link MessagingApplication}: each listener hands its message (or batch)
 * here, which reads the orders under {@code @ReadYourWrites} and keeps what the read found, where
 * it ran, and whether the listener's context was dirty.
 */
@Service
class Received {

  /** What one listener call read: of {@code ids} orders, {@code found} were there. */
  record Outcome(int ids, int found, Reason reason, boolean dirty) {}

  private final MessagingApplication.Reads reads;
  private final ExecutionHistory history;
  private final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
  private final Set<String> failedOnce = ConcurrentHashMap.newKeySet();

  Received(MessagingApplication.Reads reads, ExecutionHistory history) {
    this.reads = reads;
    this.history = history;
  }

  void handle(String payload) {
    handle(List.of(payload));
  }

  /**
   * Fails each message's first delivery, and every delivery of a {@linkplain
   * BrokerTokensContract#DEAD dead} one, which the broker then delivers again or moves to its dead
   * letters; handles a later delivery.
   */
  void handleAfterFailingOnce(String payload) {
    if (payload.startsWith(BrokerTokensContract.DEAD) || failedOnce.add(payload)) {
      throw new IllegalStateException("this delivery of " + payload + " fails");
    }
    handle(payload);
  }

  /** Handles a dead letter: the order its payload names after the mark. */
  void handleDeadLetter(String payload) {
    handle(payload.substring(BrokerTokensContract.DEAD.length()));
  }

  void handle(List<String> payloads) {
    List<Long> ids = new ArrayList<>();
    payloads.forEach(payload -> ids.add(Long.parseLong(payload)));
    int found = reads.found(ids);
    @Nullable ConsistencyContext context = ConsistencyContext.currentOrNull();
    outcomes.add(
        new Outcome(
            ids.size(),
            found,
            history.recent().get(0).reason(),
            context != null && context.isDirty()));
  }

  /** The next outcome, within a minute: longer than a read may take. */
  Outcome next() {
    try {
      Outcome next = outcomes.poll(60, TimeUnit.SECONDS);
      assertThat(next).as("a listener call within 60 s").isNotNull();
      return next;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  int pending() {
    return outcomes.size();
  }
}
