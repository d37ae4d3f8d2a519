package io.tidemark.spring.autoconfigure;

import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.ScopedWrites;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

/**
 * Advises beans with {@link ReadYourWrites} or {@link ScopedWrites} methods, ahead of any advice
 * they already have, so that a read is routed before {@code @Transactional} takes its connection.
 * Only spring-aop is needed, no AspectJ weaver.
 */
final class ReadYourWritesBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

  private static final long serialVersionUID = 1L;

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
