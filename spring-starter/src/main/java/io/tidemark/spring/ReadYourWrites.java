package io.tidemark.spring;

import io.tidemark.ConsistencyLevel;
import io.tidemark.ReadPolicy;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method's reads so that they see every write of the current consistency context
 * (the request's token, the scope's, and the writes this thread committed): on one replica
 * connection, after the replica executed the token, or as {@link #onTimeout()} says when it does
 * not within the budget. On a class, applies to every public method.
 *
 * <pre>{@code
 * @ReadYourWrites(timeoutString = "${orders.read-timeout:300ms}")
 * public Optional<Order> find(long id) {
 *   return jdbc.query("SELECT ... WHERE id = ?", ORDER, id).stream().findFirst();
 * }
 * }</pre>
 *
 * <p>The method should only read: every connection it asks for is the one pinned read connection
 * (usually a read-only replica), and it may run a second time on the source when the replica result
 * misses {@link #minRevision()} or the replica connection fails. It may sit inside or around
 * {@code @Transactional(readOnly = true)}: the routing happens first, the transaction then runs on
 * the pinned connection. Called inside a transaction that is already open, it joins that
 * transaction, which runs on the source, once the source is seen to have executed the token and the
 * transaction's read view is known to include it (else {@code IllegalStateException}).
 *
 * <p>A read that cannot be served as its policy allows throws {@link
 * io.tidemark.ConsistentReadException} with the reason (mapped to 503 by the web support).
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface ReadYourWrites {

  /** Budget of the read in milliseconds; negative for {@code tidemark.read.timeout}. */
  long timeout() default -1;

  /**
   * Budget of the read as a duration ({@code "250ms"}, {@code "1s"}, a bare number of
   * milliseconds), placeholders resolved; empty for {@link #timeout()}. The request's remaining
   * budget caps either.
   */
  String timeoutString() default "";

  /**
   * What the read does when the replica has not caught up within the budget; at most one value,
   * none for {@code tidemark.read.policy}.
   */
  ReadPolicy[] onTimeout() default {};

  /**
   * Scope whose token the read also requires, as a SpEL expression over the method's arguments
   * ({@code "'customer:' + #customerId"}); empty for none. Needs a scope store ({@code
   * tidemark.scope.store}).
   */
  String scope() default "";

  /**
   * Lowest revision the result must have, as a SpEL expression over the arguments ({@code
   * "#minRevision"}); empty for none. The method must then return a {@link Revisioned} (or an
   * {@code Optional} of one; empty or {@code null} counts as no row).
   */
  String minRevision() default "";

  /**
   * Tables ({@code schema.table}) the method reads; replicas whose replication filters leave any of
   * them out are not chosen. Empty when not told.
   */
  String[] tables() default {};

  /**
   * Monotonic reads: the answer's token also carries what the read's server (a replica, or the
   * source) had executed when this read ran, so the client's next read sees at least as much, even
   * a client that never writes (one more round trip per read). {@code false} opts this method out;
   * {@code tidemark.read.monotonic=false} opts out every method.
   */
  boolean monotonic() default true;

  /**
   * What the read must see: {@link ConsistencyLevel#SESSION} (the client's own writes and what it
   * was shown), {@link ConsistencyLevel#GLOBAL} (everything the source had committed when the read
   * began, whoever wrote it: for a webhook or a consumer of another system's messages, which carry
   * no token), {@link ConsistencyLevel#BOUNDED} (as {@code GLOBAL}, {@link #maxStaleness()} before
   * the read began) or {@link ConsistencyLevel#EVENTUAL} (what the replica has, without waiting).
   * At most one value, none for {@code tidemark.read.level}.
   */
  ConsistencyLevel[] level() default {};

  /**
   * How far behind the source a {@code BOUNDED} read may be, as a duration ({@code "500ms"}),
   * placeholders resolved; empty for {@code tidemark.read.max-staleness}.
   */
  String maxStaleness() default "";
}
