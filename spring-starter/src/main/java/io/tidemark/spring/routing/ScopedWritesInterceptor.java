package io.tidemark.spring.routing;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.dialect.WalPosition;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import io.tidemark.spring.ScopedWrites;
import java.lang.reflect.Method;
import java.util.UUID;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Merges the writes of {@link ScopedWrites} methods into their scope, once they committed; every
 * call goes on to the reads' interceptor, for methods that also read under {@code ReadYourWrites}.
 */
final class ScopedWritesInterceptor implements MethodInterceptor {

  private static final Log log = LogFactory.getLog(ScopedWritesInterceptor.class);

  private final Scopes scopes;
  private final MethodInterceptor reads;

  ScopedWritesInterceptor(Scopes scopes, MethodInterceptor reads) {
    this.scopes = scopes;
    this.reads = reads;
  }

  @Override
  public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
    Class<?> type = invocation.getThis() != null ? invocation.getThis().getClass() : null;
    Method specific = AopUtils.getMostSpecificMethod(invocation.getMethod(), type);
    ScopedWrites scoped = AnnotatedElementUtils.findMergedAnnotation(specific, ScopedWrites.class);
    if (scoped == null) {
      return reads.invoke(invocation);
    }
    ConsistencyContext bound = ConsistencyContext.currentOrNull();
    try (ConsistencyContext.Binding binding =
        bound != null ? bound.attach() : ConsistencyContext.open()) {
      ConsistencyContext context = binding.context();
      GtidSet before = context.gtids();
      Object result;
      try {
        result = reads.invoke(invocation);
      } catch (Throwable failure) {
        // What committed before the failure is written all the same: the scope must learn it.
        publishOnceCommitted(scoped, specific, invocation.getArguments(), context, before);
        throw failure;
      }
      publishOnceCommitted(scoped, specific, invocation.getArguments(), context, before);
      return result;
    }
  }

  /**
   * Publishes now, or, inside an outer transaction whose commit is still to come (so the writes'
   * GTIDs are not captured yet), right after that commit.
   */
  private void publishOnceCommitted(
      ScopedWrites scoped,
      Method method,
      Object[] arguments,
      ConsistencyContext context,
      GtidSet before) {
    if (TransactionSynchronizationManager.isSynchronizationActive()
        && TransactionSynchronizationManager.isActualTransactionActive()) {
      TransactionSynchronizationManager.registerSynchronization(
          new TransactionSynchronization() {
            @Override
            public void afterCommit() {
              publish(scoped, method, arguments, context, before);
            }
          });
      return;
    }
    publish(scoped, method, arguments, context, before);
  }

  private void publish(
      ScopedWrites scoped,
      Method method,
      Object[] arguments,
      ConsistencyContext context,
      GtidSet before) {
    ScopeStore tokens = scopes.store("@ScopedWrites");
    ScopeKey key = scopes.key(scoped.value(), method, arguments, "@ScopedWrites");
    // Both are idempotent, so one more try is safe after a call that may or may not have landed.
    if (context.isDirty()) {
      String because = String.valueOf(context.dirtyBecause());
      if (!tokens.markDirty(key, because) && !tokens.markDirty(key, because)) {
        notRecorded(context, key, method, "could not be marked dirty");
      }
    }
    GtidSet written = written(context.gtids(), before);
    if (!written.isEmpty() && !tokens.merge(key, written) && !tokens.merge(key, written)) {
      notRecorded(context, key, method, "did not take the GTIDs " + written.toSingleLineString());
    }
  }

  /**
   * What the unit of work wrote between {@code before} and {@code after}: the GTIDs added, and of a
   * WAL origin the whole position, since its counter is a position and the suffix since {@code
   * before} would add an interval to the scope with every write until it overflowed.
   */
  static GtidSet written(GtidSet after, GtidSet before) {
    GtidSet written = after.subtract(before);
    for (UUID origin : written.uuids()) {
      WalPosition position = WalPosition.in(after, origin);
      if (position != null) {
        written = written.union(position.toGtidSet());
      }
    }
    return written;
  }

  /**
   * The writes committed: failing the method now would answer a committed write as a failure, and
   * the caller would retry it. The context notes the scope instead, so the answer names it.
   */
  private static void notRecorded(
      ConsistencyContext context, ScopeKey key, Method method, String what) {
    context.scopeNotRecorded(key.toString());
    log.warn(
        "The writes of "
            + method.toGenericString()
            + " committed, but scope "
            + key
            + " "
            + what
            + ": the scope store did not answer in time; reads under the scope on other"
            + " instances may miss them.");
  }
}
