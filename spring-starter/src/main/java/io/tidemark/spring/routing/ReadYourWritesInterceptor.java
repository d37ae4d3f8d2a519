package io.tidemark.spring.routing;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.internal.ConnectionFailures;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.ReadResult;
import io.tidemark.scope.ScopeKey;
import io.tidemark.scope.ScopeStore;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.Revisioned;
import io.tidemark.spring.ScopedWrites;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

/**
 * Runs methods annotated with {@link ReadYourWrites} through the read path, their connections
 * pinned to the connection it chose, and merges the writes of {@link ScopedWrites} methods into
 * their scope.
 */
final class ReadYourWritesInterceptor implements MethodInterceptor {

  private static final Log log = LogFactory.getLog(ReadYourWritesInterceptor.class);

  private final ObjectProvider<ConsistentReader> reader;
  private final ObjectProvider<ScopeStore> store;
  private final ObjectProvider<ReadInstrumentation> instrumentation;
  private final MethodExpressions expressions;
  private final StringValueResolver values;
  private final Map<Method, ReadAttributes> attributes = new ConcurrentHashMap<>();

  ReadYourWritesInterceptor(
      ObjectProvider<ConsistentReader> reader,
      ObjectProvider<ScopeStore> store,
      ObjectProvider<ReadInstrumentation> instrumentation,
      MethodExpressions expressions,
      StringValueResolver values) {
    this.reader = reader;
    this.store = store;
    this.instrumentation = instrumentation;
    this.expressions = expressions;
    this.values = values;
  }

  @Override
  public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
    Method method = invocation.getMethod();
    if (ReflectionUtils.isObjectMethod(method)
        || ReflectionUtils.isToStringMethod(method)
        || ReflectionUtils.isEqualsMethod(method)
        || ReflectionUtils.isHashCodeMethod(method)) {
      // toString, equals, hashCode of a class-level read are no reads.
      return invocation.proceed();
    }
    Class<?> type = invocation.getThis() != null ? invocation.getThis().getClass() : null;
    Method specific = AopUtils.getMostSpecificMethod(method, type);
    ScopedWrites scoped = AnnotatedElementUtils.findMergedAnnotation(specific, ScopedWrites.class);
    ReadYourWrites read =
        AnnotatedElementUtils.findMergedAnnotation(specific, ReadYourWrites.class);
    if (read == null && type != null) {
      read = AnnotatedElementUtils.findMergedAnnotation(type, ReadYourWrites.class);
    }
    ConsistencyContext bound = ConsistencyContext.currentOrNull();
    try (ConsistencyContext.Binding scope =
        bound != null ? bound.attach() : ConsistencyContext.open()) {
      ConsistencyContext context = scope.context();
      GtidSet before = context.gtids();
      Object result;
      try {
        result = read != null ? read(invocation, specific, read, context) : invocation.proceed();
      } catch (Throwable failure) {
        // What committed before the failure is written all the same: the scope must learn it.
        if (scoped != null) {
          publishOnceCommitted(scoped, specific, invocation.getArguments(), context, before);
        }
        throw failure;
      }
      if (scoped != null) {
        publishOnceCommitted(scoped, specific, invocation.getArguments(), context, before);
      }
      return result;
    }
  }

  private @Nullable Object read(
      MethodInvocation invocation,
      Method method,
      ReadYourWrites annotation,
      ConsistencyContext context)
      throws Throwable {
    ReadAttributes attrs =
        attributes.computeIfAbsent(method, m -> ReadAttributes.of(annotation, m, values));
    Object[] arguments = invocation.getArguments();
    if (!attrs.scope().isEmpty()) {
      requiredStore("@ReadYourWrites(scope)")
          .get(scopeKey(attrs.scope(), method, arguments, "@ReadYourWrites(scope)"))
          .applyTo(context);
    }
    PinnedRead pinned = PinnedRead.current();
    if (pinned != null) {
      if (!context.isDirty() && pinned.token().containsAll(context.gtids())) {
        return invocation.proceed();
      }
      throw new IllegalStateException(
          method.toGenericString()
              + " needs a newer token than the @ReadYourWrites read it is called from, whose"
              + " connection was chosen for an older one; annotate the outer method with the"
              + " scope, or call this one outside it");
    }
    ConsistentReader consistentReader = reader.getObject();
    if (TransactionSynchronizationManager.isActualTransactionActive()) {
      // The read joins the open transaction: its statements go to that transaction's connection,
      // the source's, in its read view. Another resource's transaction (a message broker's, say)
      // holds no connection here; the read goes to a fresh source connection then.
      Connection open = openTransactionConnection();
      if (open != null) {
        Integer isolation = TransactionSynchronizationManager.getCurrentTransactionIsolationLevel();
        consistentReader.checkJoinedTransaction(
            open, isolation != null && isolation <= Connection.TRANSACTION_READ_COMMITTED);
      }
      return invocation.proceed();
    }
    Deadline request = context.deadline();
    ReadOptions options =
        attrs.options(consistentReader.defaults(), request == null ? null : request.remaining());
    ToLongFunction<Object> revisionOf = null;
    if (!attrs.minRevision().isEmpty()) {
      Long min =
          expressions.evaluate(
              attrs.minRevision(), method, arguments, Long.class, "@ReadYourWrites(minRevision)");
      options = options.withMinRevision(min);
      revisionOf = value -> revisionOf(value, method);
    }
    ReadOptions finalOptions = options;
    ToLongFunction<Object> finalRevisionOf = revisionOf;
    GtidSet token = context.gtids();
    ReadInstrumentation.ObservedRead<Object> run =
        () -> {
          ReadResult<Object> result =
              consistentReader.read(
                  finalOptions,
                  connection -> {
                    try (PinnedRead.Binding binding = PinnedRead.pin(connection, token)) {
                      return proceed(invocation);
                    }
                  },
                  finalRevisionOf);
          return result.value();
        };
    String name = method.getDeclaringClass().getSimpleName() + "." + method.getName();
    try {
      List<ReadInstrumentation> observers = instrumentation.orderedStream().toList();
      for (ReadInstrumentation observer : observers) {
        ReadInstrumentation.ObservedRead<Object> inner = run;
        run = () -> observer.observe(name, inner);
      }
      return run.run();
    } catch (MethodFailure e) {
      throw e.getCause();
    }
  }

  /** The connection the thread's transaction holds from the application's data source, if any. */
  private static @Nullable Connection openTransactionConnection() {
    for (Map.Entry<Object, Object> bound :
        TransactionSynchronizationManager.getResourceMap().entrySet()) {
      if (bound.getKey() instanceof RoutingDataSource
          && bound.getValue() instanceof ConnectionHolder holder
          && holder.getConnectionHandle() != null) {
        return holder.getConnection();
      }
    }
    return null;
  }

  private static @Nullable Object proceed(MethodInvocation invocation) throws SQLException {
    try {
      return invocation.proceed();
    } catch (RuntimeException e) {
      // JdbcTemplate and JPA translate a lost connection; the read path must still see it as one,
      // so that a replica that stopped answering leads to the policy, not to an error.
      if (ConnectionFailures.causedByConnectionFailure(e)) {
        throw new ConnectionLost(e);
      }
      throw e;
    } catch (SQLException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new MethodFailure(e);
    }
  }

  private static long revisionOf(@Nullable Object value, Method method) {
    Object row = value instanceof Optional<?> optional ? optional.orElse(null) : value;
    if (row == null) {
      return Long.MIN_VALUE;
    }
    if (row instanceof Revisioned revisioned) {
      return revisioned.revision();
    }
    throw new IllegalStateException(
        "@ReadYourWrites(minRevision) on "
            + method.toGenericString()
            + " needs a Revisioned result, got "
            + row.getClass().getName());
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
    ScopeStore tokens = requiredStore("@ScopedWrites");
    ScopeKey key = scopeKey(scoped.value(), method, arguments, "@ScopedWrites");
    // Both are idempotent, so one more try is safe after a call that may or may not have landed.
    if (context.isDirty()) {
      String because = String.valueOf(context.dirtyBecause());
      if (!tokens.markDirty(key, because) && !tokens.markDirty(key, because)) {
        notRecorded(context, key, method, "could not be marked dirty");
      }
    }
    GtidSet written = context.gtids().subtract(before);
    if (!written.isEmpty() && !tokens.merge(key, written) && !tokens.merge(key, written)) {
      notRecorded(context, key, method, "did not take the GTIDs " + written.toSingleLineString());
    }
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

  private ScopeKey scopeKey(String expression, Method method, Object[] arguments, String what) {
    String text = expressions.evaluate(expression, method, arguments, String.class, what);
    try {
      return ScopeKey.of(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          what + " of " + method.toGenericString() + " gave an invalid scope: " + e.getMessage(),
          e);
    }
  }

  private ScopeStore requiredStore(String what) {
    ScopeStore tokens = store.getIfAvailable();
    if (tokens == null) {
      throw new IllegalStateException(
          what + " needs a scope store: set tidemark.scope.store to REDIS or CAFFEINE");
    }
    return tokens;
  }

  /**
   * A lost connection inside the annotated method, shown to the read path as the SQL failure it is:
   * on a replica the read's policy applies, on the source it ends as SOURCE_ERROR.
   */
  private static final class ConnectionLost extends SQLException {
    private static final long serialVersionUID = 1L;

    ConnectionLost(RuntimeException cause) {
      super(cause.getMessage(), "08006", cause);
    }
  }

  /** A checked exception of the annotated method, carried through the read path unchanged. */
  private static final class MethodFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MethodFailure(Throwable cause) {
      super(cause);
    }
  }
}
