package io.tidemark.spring.routing;

import io.tidemark.internal.SqlText;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.aopalliance.intercept.MethodInterceptor;
import org.apache.ibatis.binding.MapperProxy;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.mapping.SqlCommandType;
import org.apache.ibatis.mapping.StatementType;
import org.apache.ibatis.scripting.defaults.RawSqlSource;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * MyBatis mappers in the automatic mode: a mapper method whose statement is a {@code select} (not a
 * procedure call, and, when its text is fixed, a plain query as {@link SqlText} reads it) runs as a
 * read when no transaction is active. Which statement a method runs is known only to the session
 * factory that has the mapper, looked up at a method's first call.
 */
final class MapperSelects extends ReadOnlyTransactionPointcut {

  private final Class<?> mapper;
  private final ObjectProvider<SqlSessionFactory> factories;

  private MapperSelects(Class<?> mapper, BeanFactory beans, Pointcut annotated) {
    super(null, annotated);
    this.mapper = mapper;
    this.factories = beans.getBeanProvider(SqlSessionFactory.class);
  }

  /**
   * {@code bean} advised with {@code selects} for its select methods when it is a mapper, else
   * {@code bean} itself.
   */
  static Object advise(
      Object bean,
      BeanFactory beans,
      Pointcut annotated,
      MethodInterceptor selects,
      @Nullable ClassLoader classLoader) {
    if (!Proxy.isProxyClass(bean.getClass())
        || !(Proxy.getInvocationHandler(bean) instanceof MapperProxy<?>)
        || bean.getClass().getInterfaces().length != 1) {
      return bean;
    }
    ProxyFactory proxy = new ProxyFactory(bean);
    proxy.addAdvisor(
        new DefaultPointcutAdvisor(
            new MapperSelects(bean.getClass().getInterfaces()[0], beans, annotated), selects));
    return proxy.getProxy(classLoader);
  }

  @Override
  boolean readsWithoutTransaction(Method method) {
    if (method.isDefault()) {
      return false;
    }
    for (SqlSessionFactory factory : factories) {
      Configuration configuration = factory.getConfiguration();
      for (Class<?> type : new Class<?>[] {mapper, method.getDeclaringClass()}) {
        String id = type.getName() + "." + method.getName();
        if (configuration.hasStatement(id, false)) {
          MappedStatement statement = configuration.getMappedStatement(id, false);
          return statement.getSqlCommandType() == SqlCommandType.SELECT
              && statement.getStatementType() != StatementType.CALLABLE
              && plainWhenStatic(statement);
        }
      }
    }
    return false;
  }

  /**
   * Whether a statement whose text is fixed is a plain query, as a JdbcTemplate query's must be; a
   * dynamic one is known only per call, and the replica connection refuses what only the source
   * should run.
   */
  private static boolean plainWhenStatic(MappedStatement statement) {
    return !(statement.getSqlSource() instanceof RawSqlSource raw)
        || SqlText.plainQuery(raw.getBoundSql(null).getSql());
  }
}
