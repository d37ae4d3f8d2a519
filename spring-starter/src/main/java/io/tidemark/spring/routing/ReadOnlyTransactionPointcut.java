package io.tidemark.spring.routing;

import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.transaction.interceptor.TransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttributeSource;

/**
 * The methods a transaction advice runs read-only, as its own attribute source says, except those
 * the annotations already route: the automatic mode's reads.
 */
class ReadOnlyTransactionPointcut extends StaticMethodMatcherPointcut {

  private final @Nullable TransactionAttributeSource transactions;
  private final Pointcut annotated;

  ReadOnlyTransactionPointcut(
      @Nullable TransactionAttributeSource transactions, Pointcut annotated) {
    this.transactions = transactions;
    this.annotated = annotated;
  }

  @Override
  public final boolean matches(Method method, @Nullable Class<?> targetClass) {
    Class<?> type = targetClass != null ? targetClass : method.getDeclaringClass();
    if (annotated.getClassFilter().matches(type)
        && annotated.getMethodMatcher().matches(method, type)) {
      return false;
    }
    TransactionAttribute attribute =
        transactions == null ? null : transactions.getTransactionAttribute(method, targetClass);
    return attribute != null ? attribute.isReadOnly() : readsWithoutTransaction(method);
  }

  /** Whether {@code method}, which runs without a transaction, is a read all the same. */
  boolean readsWithoutTransaction(Method method) {
    return false;
  }
}
