package io.tidemark.spring.routing;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.internal.Failures;
import io.tidemark.internal.ReplicaRefusedException;
import io.tidemark.internal.SqlText;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.jdbc.SqlFunction;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.Revisioned;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.jdbc.core.SqlProvider;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

/**
 * Runs methods annotated with {@link ReadYourWrites} through the read path, their connections
 * pinned to the connection it chose.
 */
final class ReadYourWritesInterceptor implements MethodInterceptor {

  private static final Log log = LogFactory.getLog(ReadYourWritesInterceptor.class);

  private final ObjectProvider<ConsistentReader> reader;
  private final Scopes scopes;
  private final MethodExpressions expressions;
  private final StringValueResolver values;
  private final Map<Method, ReadAttributes> attributes = new ConcurrentHashMap<>();

  ReadYourWritesInterceptor(
      ObjectProvider<ConsistentReader> reader,
      Scopes scopes,
      MethodExpressions expressions,
      StringValueResolver values) {
    this.reader = reader;
    this.scopes = scopes;
    this.expressions = expressions;
    this.values = values;
  }

  /** The scopes its reads look up, shared with the writes that record them. */
  Scopes scopes() {
    return scopes;
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
    ReadYourWrites read =
        AnnotatedElementUtils.findMergedAnnotation(specific, ReadYourWrites.class);
    if (read == null && type != null) {
      read = AnnotatedElementUtils.findMergedAnnotation(type, ReadYourWrites.class);
    }
    if (read == null) {
      return invocation.proceed();
    }
    ReadYourWrites annotation = read;
    return read(
        invocation,
        specific,
        attributes.computeIfAbsent(
            specific,
            m -> ReadAttributes.of(annotation, m, readName(invocation.getMethod(), m), values)));
  }

  /**
   * Runs read-only transactional methods through the read path as if they were annotated with the
   * defaults: the automatic mode.
   */
  MethodInterceptor readOnlyTransactions() {
    return invocation -> {
      Class<?> type = invocation.getThis() != null ? invocation.getThis().getClass() : null;
      Method specific = AopUtils.getMostSpecificMethod(invocation.getMethod(), type);
      ReadAttributes attrs =
          attributes.computeIfAbsent(
              specific, m -> ReadAttributes.implicit(readName(invocation.getMethod(), m)));
      if (ConsistencyContext.currentOrNull() != null) {
        return read(invocation, specific, attrs);
      }
      // A thread no request, message or task opened a context for (a scheduled job, a thread of
      // the application's own) had its writes captured nowhere: only the source is sure to have
      // them.
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        binding.context().markDirty("no consistency context on this thread captured its writes");
        return read(invocation, specific, attrs, binding.context());
      }
    };
  }

  /**
   * JdbcTemplate's queries outside any transaction, each a read of its own with the defaults: the
   * automatic mode. A query whose text may write or runs on the source only runs as it would
   * without Tidemark.
   */
  MethodInterceptor plainQueries() {
    return queriesOutsideTransactions(
        invocation -> {
          Object[] arguments = invocation.getArguments();
          Object statement = arguments.length == 0 ? null : arguments[0];
          String sql =
              statement instanceof String text
                  ? text
                  : statement instanceof SqlProvider provider ? provider.getSql() : null;
          return sql != null && SqlText.plainQuery(sql);
        });
  }

  /**
   * A MyBatis mapper's select statements outside any transaction, each a read of its own with the
   * defaults: the automatic mode. Which methods are selects the pointcut decides.
   */
  MethodInterceptor mapperSelects() {
    return queriesOutsideTransactions(invocation -> true);
  }

  /**
   * The queries {@code plain} accepts, outside any transaction or other read, as reads. One inside
   * runs as it would without Tidemark, as does one that the read's read-only session refuses.
   */
  private MethodInterceptor queriesOutsideTransactions(Predicate<MethodInvocation> plain) {
    MethodInterceptor reads = readOnlyTransactions();
    return invocation ->
        !outsideTransactionsAndReads() || !plain.test(invocation)
            ? invocation.proceed()
            : reads.invoke(invocation);
  }

  /**
   * Whether a query run now is outside any transaction and any other read: the automatic mode reads
   * such a query alone.
   */
  static boolean outsideTransactionsAndReads() {
    return PinnedRead.current() == null
        && !TransactionSynchronizationManager.isSynchronizationActive();
  }

  private @Nullable Object read(MethodInvocation invocation, Method method, ReadAttributes attrs)
      throws Throwable {
    ConsistencyContext bound = ConsistencyContext.currentOrNull();
    try (ConsistencyContext.Binding binding =
        bound != null ? bound.attach() : ConsistencyContext.open()) {
      return read(invocation, method, attrs, binding.context());
    }
  }

  private @Nullable Object read(
      MethodInvocation invocation, Method method, ReadAttributes attrs, ConsistencyContext context)
      throws Throwable {
    Object[] arguments = invocation.getArguments();
    if (!attrs.scope().isEmpty()) {
      scopes
          .store("@ReadYourWrites(scope)")
          .get(scopes.key(attrs.scope(), method, arguments, "@ReadYourWrites(scope)"))
          .applyTo(context);
    }
    PinnedRead pinned = PinnedRead.current();
    if (pinned != null) {
      if (!context.isDirty() && pinned.required().containsAll(context.gtids())) {
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
    ReadOptions options = options(attrs, consistentReader, context);
    ToLongFunction<Object> revisionOf = null;
    if (!attrs.minRevision().isEmpty()) {
      Long min =
          expressions.evaluate(
              attrs.minRevision(), method, arguments, Long.class, "@ReadYourWrites(minRevision)");
      options = options.withMinRevision(min);
      revisionOf = value -> revisionOf(value, method);
    }
    GtidSet required = context.gtids();
    return read(
        consistentReader,
        attrs.name(),
        options,
        pinned(invocation, required),
        revisionOf,
        () -> proceedAgain(invocation));
  }

  /** The method, run on the read's connection pinned for its statements. */
  // NullAway reads a type argument's nullness only in its JSpecify mode: the method may answer
  // null.
  @SuppressWarnings("NullAway")
  private SqlFunction<@Nullable Object> pinned(MethodInvocation invocation, GtidSet required) {
    return connection -> {
      try (PinnedRead.Binding binding = PinnedRead.pin(connection, required)) {
        return proceed(invocation);
      }
    };
  }

  /**
   * Runs a query the automatic mode found outside any transaction and that no advice can wrap (a
   * jOOQ query's statement) as a read of its own with the defaults, named {@code name} in metrics
   * and traces. {@code again} runs it as it would without Tidemark, for when the read's read-only
   * session refuses it.
   */
  @Nullable Object readStatement(String name, SqlFunction<Object> query, Rerun again)
      throws Throwable {
    ConsistencyContext bound = ConsistencyContext.currentOrNull();
    try (ConsistencyContext.Binding binding =
        bound != null ? bound.attach() : ConsistencyContext.open()) {
      if (bound == null) {
        // As for a read-only transaction on such a thread: only the source is sure to have its
        // writes.
        binding.context().markDirty("no consistency context on this thread captured its writes");
      }
      ConsistentReader consistentReader = reader.getObject();
      ReadAttributes attrs = ReadAttributes.implicit(name);
      return read(
          consistentReader,
          name,
          options(attrs, consistentReader, binding.context()),
          query,
          null,
          again);
    }
  }

  /** What runs a query again as it would without Tidemark. */
  @FunctionalInterface
  interface Rerun {
    @Nullable Object run() throws Throwable;
  }

  /** The read's options: the attributes', within the request's deadline, at its level. */
  private static ReadOptions options(
      ReadAttributes attrs, ConsistentReader consistentReader, ConsistencyContext context) {
    Deadline request = context.deadline();
    ReadOptions options =
        attrs.options(consistentReader.defaults(), request == null ? null : request.remaining());
    ConsistencyLevel requested = context.requestedLevel();
    if (attrs.level() == null && requested != null) {
      options = options.withLevel(requested);
    }
    return options;
  }

  private @Nullable Object read(
      ConsistentReader consistentReader,
      String name,
      ReadOptions options,
      SqlFunction<@Nullable Object> query,
      @Nullable ToLongFunction<Object> revisionOf,
      Rerun again)
      throws Throwable {
    try {
      return consistentReader.read(options.withName(name), query, revisionOf).value();
    } catch (MethodFailure e) {
      throw e.getCause();
    } catch (RuntimeException | SQLException e) {
      if (!SqlText.refusedAsWrite(e)) {
        throw e;
      }
      // The read-only session refused what the method sent: a locking read that MySQL runs in no
      // read-only transaction, a function that writes. The method runs again as it would without
      // Tidemark: on the source, its writes captured.
      return again.run();
    }
  }

  /**
   * {@code Class.method} for the metrics and traces of a read: the class the method is declared in,
   * or, for a JDK proxy such as a Spring Data repository, the interface it implements that has the
   * method ({@code OrderRepository.findById}), never the proxy's generated name.
   */
  static String readName(Method called, Method specific) {
    Class<?> declaring = specific.getDeclaringClass();
    if (Proxy.isProxyClass(declaring)) {
      declaring = called.getDeclaringClass();
      for (Class<?> implemented : specific.getDeclaringClass().getInterfaces()) {
        if (declaring.isAssignableFrom(implemented)) {
          declaring = implemented;
          break;
        }
      }
    }
    return ClassUtils.getUserClass(declaring).getSimpleName() + "." + specific.getName();
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

  /**
   * Runs the advice after this one again, the method's transaction among it: a second proceed() on
   * the same invocation would go straight to the method.
   */
  private static @Nullable Object proceedAgain(MethodInvocation invocation) throws Throwable {
    return invocation instanceof ProxyMethodInvocation proxied
        ? proxied.invocableClone().proceed()
        : invocation.proceed();
  }

  private static @Nullable Object proceed(MethodInvocation invocation) throws SQLException {
    try {
      // Each attempt, the replica's, then the source's, runs the advice after this one.
      return proceedAgain(invocation);
    } catch (RuntimeException e) {
      // JdbcTemplate and JPA translate a lost connection; the read path must still see it as one,
      // so that a replica that stopped answering leads to the policy, not to an error.
      if (Failures.causedByConnectionFailure(e)) {
        throw new ConnectionLost(e);
      }
      // What the replica cannot run and the source can (a SERIALIZABLE transaction begun on a hot
      // standby), refused on the replica's connection only: the read's policy decides.
      ReplicaRefusedException refused = ReplicaRefusedException.in(e);
      if (refused != null) {
        throw refused;
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
