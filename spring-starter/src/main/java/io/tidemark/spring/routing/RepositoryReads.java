package io.tidemark.spring.routing;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.data.repository.core.RepositoryInformation;
import org.springframework.data.repository.core.support.RepositoryFactoryBeanSupport;
import org.springframework.transaction.interceptor.TransactionAttributeSource;
import org.springframework.transaction.interceptor.TransactionInterceptor;

/**
 * Spring Data repositories in the automatic mode. A query method runs without a transaction unless
 * one is declared for it, so the read-only transactions alone would leave every derived and
 * {@code @Query} finder on the source: the repository's own metadata tells which methods are query
 * methods. A modifying query, a derived delete and a method with a read-write transaction are no
 * reads.
 */
final class RepositoryReads {

  private RepositoryReads() {}

  /** Has the repository {@code factoryBean} makes advise its reads with {@code reads}. */
  static void advise(Object factoryBean, Pointcut annotated, MethodInterceptor reads) {
    if (factoryBean instanceof RepositoryFactoryBeanSupport<?, ?, ?> repositories) {
      repositories.addRepositoryFactoryCustomizer(
          factory ->
              factory.addRepositoryProxyPostProcessor(
                  (proxy, repository) -> advise(proxy, repository, annotated, reads)));
    }
  }

  private static void advise(
      ProxyFactory proxy,
      RepositoryInformation repository,
      Pointcut annotated,
      MethodInterceptor reads) {
    Advisor[] advisors = proxy.getAdvisors();
    int position = advisors.length;
    TransactionAttributeSource transactions = null;
    for (int i = 0; i < advisors.length; i++) {
      if (advisors[i].getAdvice() instanceof TransactionInterceptor interceptor) {
        position = i;
        transactions = interceptor.getTransactionAttributeSource();
        break;
      }
    }
    proxy.addAdvisor(
        position,
        new DefaultPointcutAdvisor(new Reads(repository, transactions, annotated), reads));
  }

  /** The marker the automatic mode leaves on a repository proxy it advised. */
  static boolean advised(Advisor advisor) {
    return advisor instanceof DefaultPointcutAdvisor pointcut
        && pointcut.getPointcut() instanceof Reads;
  }

  private static final class Reads extends ReadOnlyTransactionPointcut {
    private final RepositoryInformation repository;

    Reads(
        RepositoryInformation repository,
        @Nullable TransactionAttributeSource transactions,
        Pointcut annotated) {
      super(transactions, annotated);
      this.repository = repository;
    }

    @Override
    boolean readsWithoutTransaction(Method method) {
      return repository.isQueryMethod(method) && !writes(method);
    }

    private static boolean writes(Method method) {
      String name = method.getName();
      return name.startsWith("delete")
          || name.startsWith("remove")
          || Arrays.stream(method.getAnnotations())
              .anyMatch(a -> a.annotationType().getSimpleName().equals("Modifying"));
    }
  }
}
