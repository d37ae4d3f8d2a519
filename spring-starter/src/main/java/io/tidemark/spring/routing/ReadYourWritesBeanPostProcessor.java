package io.tidemark.spring.routing;

import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.scope.ScopeStore;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.ScopedWrites;
import java.util.Objects;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.core.Ordered;
import org.springframework.transaction.interceptor.TransactionInterceptor;

/**
 * Advises beans with {@link ReadYourWrites} or {@link ScopedWrites} methods. The advice goes right
 * before {@code @Transactional}'s, so that a read is routed before the transaction takes its
 * connection, and after every other advice (method security, caching): a call that is denied or
 * answered from a cache takes no replica connection and waits for nothing. With an order given, it
 * goes after the advisors of lower or equal order instead. Only spring-aop is needed, no AspectJ
 * weaver.
 */
public final class ReadYourWritesBeanPostProcessor
    extends AbstractBeanFactoryAwareAdvisingPostProcessor {

  private static final long serialVersionUID = 1L;

  /**
   * Advises with reads through {@code reader}, scopes in {@code store} and every {@code
   * instrumentation}, each looked up at the first call; expressions are evaluated against {@code
   * beans}.
   */
  public ReadYourWritesBeanPostProcessor(
      ObjectProvider<ConsistentReader> reader,
      ObjectProvider<ScopeStore> store,
      ObjectProvider<ReadInstrumentation> instrumentation,
      BeanFactory beans) {
    this(interceptors(reader, store, instrumentation, new MethodExpressions(beans), beans));
  }

  private static MethodInterceptor interceptors(
      ObjectProvider<ConsistentReader> reader,
      ObjectProvider<ScopeStore> store,
      ObjectProvider<ReadInstrumentation> instrumentation,
      MethodExpressions expressions,
      BeanFactory beans) {
    Scopes scopes = new Scopes(store, expressions);
    return new ScopedWritesInterceptor(
        scopes,
        new ReadYourWritesInterceptor(
            reader,
            scopes,
            instrumentation,
            expressions,
            new EmbeddedValueResolver((ConfigurableBeanFactory) beans)));
  }

  private @Nullable Integer order;

  /**
   * Places the advice after the bean's advisors whose order is lower or equal, before the others,
   * instead of right before the transaction advice.
   */
  public void setAdviceOrder(@Nullable Integer order) {
    this.order = order;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof Advised advised
        && !advised.isFrozen()
        && isEligible(AopUtils.getTargetClass(bean))) {
      advised.addAdvisor(position(advised.getAdvisors()), Objects.requireNonNull(advisor));
      return bean;
    }
    return super.postProcessAfterInitialization(bean, beanName);
  }

  private int position(Advisor[] existing) {
    for (int i = 0; i < existing.length; i++) {
      boolean after =
          order == null
              ? existing[i].getAdvice() instanceof TransactionInterceptor
              : orderOf(existing[i]) > order;
      if (after) {
        return i;
      }
    }
    return existing.length;
  }

  private static int orderOf(Advisor advisor) {
    return advisor instanceof Ordered ordered ? ordered.getOrder() : Ordered.LOWEST_PRECEDENCE;
  }

  ReadYourWritesBeanPostProcessor(MethodInterceptor interceptor) {
    Pointcut pointcut =
        new ComposablePointcut(new AnnotationMatchingPointcut(ReadYourWrites.class, true))
            .union(new AnnotationMatchingPointcut(null, ReadYourWrites.class, true))
            .union(new AnnotationMatchingPointcut(null, ScopedWrites.class, true));
    this.advisor = new DefaultPointcutAdvisor(pointcut, interceptor);
    setProxyTargetClass(true);
  }
}
