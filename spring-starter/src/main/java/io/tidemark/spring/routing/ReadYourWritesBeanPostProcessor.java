package io.tidemark.spring.routing;

import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.scope.ScopeStore;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.ScopedWrites;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;

/**
 * Advises beans with {@link ReadYourWrites} or {@link ScopedWrites} methods, ahead of any advice
 * they already have, so that a read is routed before {@code @Transactional} takes its connection.
 * Only spring-aop is needed, no AspectJ weaver.
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

  ReadYourWritesBeanPostProcessor(MethodInterceptor interceptor) {
    Pointcut pointcut =
        new ComposablePointcut(new AnnotationMatchingPointcut(ReadYourWrites.class, true))
            .union(new AnnotationMatchingPointcut(null, ReadYourWrites.class, true))
            .union(new AnnotationMatchingPointcut(null, ScopedWrites.class, true));
    this.advisor = new DefaultPointcutAdvisor(pointcut, interceptor);
    setBeforeExistingAdvisors(true);
    setProxyTargetClass(true);
  }
}
