package io.tidemark.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Merges the GTIDs of the writes the annotated method committed into a token scope when it returns,
 * so that reads under the scope on any instance ({@link ReadYourWrites#scope()}) see them, even
 * without the response's header. A write whose GTID escaped capture marks the scope dirty, sending
 * its reads to the source for a while.
 *
 * <pre>{@code
 * @ScopedWrites("'customer:' + #order.customerId()")
 * public long create(Order order) { ... }
 * }</pre>
 *
 * <p>When the store does not take the GTIDs (two tries), the method still returns, since its writes
 * committed: the context notes the scope ({@code ConsistencyContext.unrecordedScopes()}) and an
 * HTTP answer names it in a {@code Consistency-Scope-Unrecorded} header.
 *
 * <p>It is applied before {@code @Transactional} on the same method, so the method's own commit has
 * happened when the scope is written; inside an outer transaction the scope is written right after
 * that transaction commits. A method that throws still publishes what it committed. Needs a scope
 * store ({@code tidemark.scope.store}).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ScopedWrites {

  /** The scope, as a SpEL expression over the method's arguments. */
  String value();
}
