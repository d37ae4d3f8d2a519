package io.tidemark.spring.routing;

import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.MethodMatcher;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.transaction.interceptor.TransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttributeSource;

/**
 * The methods a transaction advice runs read-only, as its own attribute source says, except those
 * the annotations already route: the automatic mode's reads.
 */
final class ReadOnlyTransactionPointcut extends StaticMethodMatcherPointcut {

  private final TransactionAttributeSource transactions;
  private final Pointcut annotated;

  ReadOnlyTransactionPointcut(TransactionAttributeSource transactions, Pointcut annotated) {
    this.transactions = transactions;
    this.annotated = annotated;
  }

  @Override
  public boolean matches(Method method, @Nullable Class<?> targetClass) {
    TransactionAttribute attribute = transactions.getTransactionAttribute(method, targetClass);
    if (attribute == null || !attribute.isReadOnly()) {
      return false;
    }
    Class<?> type = targetClass != null ? targetClass : method.getDeclaringClass();
    ClassFilter classes = annotated.getClassFilter();
    MethodMatcher methods = annotated.getMethodMatcher();
    return !(classes.matches(type) && methods.matches(method, type));
  }
}
