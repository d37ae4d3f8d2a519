package io.tidemark.demo;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What the read endpoints answer: the order, if found, and how it was read.
 *
 * @param found whether the order was found
 * @param order the order, or {@code null}
 * @param tidemark whether Tidemark routed the read
 * @param servedBy where the read ran and why
 */
public record ReadReply(boolean found, @Nullable Order order, boolean tidemark, ServedBy servedBy) {

  /**
   * @param role {@code replica}, {@code source}, {@code cache} or {@code none}
   * @param node the server's UUID, shortened; empty when no server answered
   * @param reason Tidemark's reason code, or {@code PLAIN_REPLICA_READ} without Tidemark
   * @param waitedMs time the replica was waited for
   * @param elapsedMs time the whole read took
   */
  public record ServedBy(
      String role, String node, String reason, double waitedMs, double elapsedMs) {}

  static ReadReply routed(Optional<Order> order) {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    ExecutionRecord read = context == null ? null : context.lastRead();
    ServedBy servedBy =
        read == null
            ? new ServedBy("cache", "", "CACHE_HIT", 0, 0)
            : new ServedBy(
                read.role().label(),
                read.node().length() > 8 ? read.node().substring(0, 8) : read.node(),
                read.reason().name(),
                read.waited().toNanos() / 1e6,
                read.elapsed().toNanos() / 1e6);
    return new ReadReply(order.isPresent(), order.orElse(null), true, servedBy);
  }

  static ReadReply plain(Optional<Order> order) {
    return new ReadReply(
        order.isPresent(),
        order.orElse(null),
        false,
        new ServedBy("replica", "", "PLAIN_REPLICA_READ", 0, 0));
  }
}
