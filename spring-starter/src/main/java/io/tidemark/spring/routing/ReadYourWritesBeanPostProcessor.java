package io.tidemark.spring.routing;

import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.scope.ScopeStore;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.ScopedWrites;
import java.util.Arrays;
import java.util.Objects;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.Pointcut;
import org.springframework.aop.PointcutAdvisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.NameMatchMethodPointcut;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.util.ClassUtils;

/**
 * Advises beans with {@link ReadYourWrites} or {@link ScopedWrites} methods. The advice goes right
 * before {@code @Transactional}'s, so that a read is routed before the transaction takes its
 * connection, and after every other advice (method security, caching): a call that is denied or
 * answered from a cache takes no replica connection and waits for nothing. With an order given, it
 * goes after the advisors of lower or equal order instead. Only spring-aop is needed, no AspectJ
 * weaver.
 */
final class ReadYourWritesBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

  private static final long serialVersionUID = 1L;

  private static final boolean SPRING_DATA =
      ClassUtils.isPresent(
          "org.springframework.data.repository.core.support.RepositoryFactoryBeanSupport",
          ReadYourWritesBeanPostProcessor.class.getClassLoader());

  private static final boolean MYBATIS =
      ClassUtils.isPresent(
          "org.apache.ibatis.binding.MapperProxy",
          ReadYourWritesBeanPostProcessor.class.getClassLoader());

  private static final boolean JOOQ =
      ClassUtils.isPresent(
          "org.jooq.ConnectionProvider", ReadYourWritesBeanPostProcessor.class.getClassLoader());

  /**
   * Advises with reads through {@code reader} and scopes in {@code store}, each looked up at the
   * first call; expressions are evaluated against {@code beans}.
   */
  ReadYourWritesBeanPostProcessor(
      ObjectProvider<ConsistentReader> reader,
      ObjectProvider<ScopeStore> store,
      BeanFactory beans) {
    this(interceptors(reader, store, new MethodExpressions(beans), beans));
  }

  private static ReadYourWritesInterceptor interceptors(
      ObjectProvider<ConsistentReader> reader,
      ObjectProvider<ScopeStore> store,
      MethodExpressions expressions,
      BeanFactory beans) {
    return new ReadYourWritesInterceptor(
        reader,
        new Scopes(store, expressions),
        expressions,
        new EmbeddedValueResolver((ConfigurableBeanFactory) beans));
  }

  /** JdbcTemplate's methods that run a query and hand its rows over before they return. */
  private static final NameMatchMethodPointcut JDBC_QUERIES = new NameMatchMethodPointcut();

  static {
    JDBC_QUERIES.setMappedNames(
        "query", "queryForObject", "queryForList", "queryForMap", "queryForRowSet");
  }

  private final MethodInterceptor readOnlyTransactions;
  private final MethodInterceptor plainQueries;
  private final MethodInterceptor mapperSelects;
  private final ReadYourWritesInterceptor reads;
  private @Nullable BeanFactory beans;
  private @Nullable Integer order;
  private boolean automatic;

  /**
   * Places the advice after the bean's advisors whose order is lower or equal, before the others,
   * instead of right before the transaction advice.
   */
  void setAdviceOrder(@Nullable Integer order) {
    this.order = order;
  }

  /**
   * Runs every read-only transactional method (a {@code @Transactional(readOnly = true)} method, a
   * Spring Data repository's query method) that is not annotated, and every JdbcTemplate query,
   * MyBatis mapper select and jOOQ query outside a transaction, through the read path too, with the
   * configured defaults.
   */
  void setAutomatic(boolean automatic) {
    this.automatic = automatic;
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    super.setBeanFactory(beanFactory);
    this.beans = beanFactory;
  }

  @Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (automatic && SPRING_DATA) {
      RepositoryReads.advise(bean, annotated(), readOnlyTransactions);
    }
    return bean;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (automatic && bean instanceof JdbcTemplate && !(bean instanceof Advised)) {
      ProxyFactory queries = new ProxyFactory(bean);
      queries.setProxyTargetClass(true);
      queries.addAdvisor(new DefaultPointcutAdvisor(JDBC_QUERIES, plainQueries));
      bean = queries.getProxy(getProxyClassLoader());
    }
    if (automatic && MYBATIS && beans != null && !(bean instanceof Advised)) {
      bean = MapperSelects.advise(bean, beans, annotated(), mapperSelects, getProxyClassLoader());
    }
    if (automatic && JOOQ) {
      bean = JooqStatements.advise(bean, reads);
    }
    if (bean instanceof Advised advised && !advised.isFrozen()) {
      if (automatic) {
        adviseReadOnlyTransactions(advised);
      }
      if (isEligible(AopUtils.getTargetClass(bean))) {
        advised.addAdvisor(position(advised.getAdvisors()), Objects.requireNonNull(advisor));
        return bean;
      }
    }
    // A repository's annotations are on its interface, which its target does not implement: the
    // proxy gets a proxy of its own.
    return super.postProcessAfterInitialization(bean, beanName);
  }

  /**
   * Gives each transaction advice of the bean a read advice right before it, for the methods it
   * runs read-only: the bean's own attribute source decides, as a repository's differs from
   * {@code @Transactional}'s.
   */
  private void adviseReadOnlyTransactions(Advised advised) {
    if (SPRING_DATA && Arrays.stream(advised.getAdvisors()).anyMatch(RepositoryReads::advised)) {
      return;
    }
    for (Advisor existing : advised.getAdvisors()) {
      if (existing.getAdvice() instanceof TransactionInterceptor transactions
          && transactions.getTransactionAttributeSource() != null) {
        advised.addAdvisor(
            position(advised.getAdvisors()),
            new DefaultPointcutAdvisor(
                new ReadOnlyTransactionPointcut(
                    transactions.getTransactionAttributeSource(), annotated()),
                readOnlyTransactions));
      }
    }
  }

  private Pointcut annotated() {
    return ((PointcutAdvisor) Objects.requireNonNull(advisor)).getPointcut();
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

  ReadYourWritesBeanPostProcessor(ReadYourWritesInterceptor reads) {
    Pointcut pointcut =
        new ComposablePointcut(new AnnotationMatchingPointcut(ReadYourWrites.class, true))
            .union(new AnnotationMatchingPointcut(null, ReadYourWrites.class, true))
            .union(new AnnotationMatchingPointcut(null, ScopedWrites.class, true));
    this.advisor =
        new DefaultPointcutAdvisor(pointcut, new ScopedWritesInterceptor(reads.scopes(), reads));
    this.readOnlyTransactions = reads.readOnlyTransactions();
    this.plainQueries = reads.plainQueries();
    this.mapperSelects = reads.mapperSelects();
    this.reads = reads;
    setProxyTargetClass(true);
  }
}
