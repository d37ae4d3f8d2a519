package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.transaction.UserTransaction;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.jta.JtaTransactionManager;

class JtaCheckTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withBean(JtaCheck.class);

  @Test
  void refusesToStartBesideAJtaTransactionManager() {
    runner
        .withBean(JtaTransactionManager.class, () -> new JtaTransactionManager(userTransaction()))
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .isInstanceOf(TidemarkStartupException.class)
                    .hasMessageContaining("XA commits"));
  }

  @Test
  void startsBesideALocalTransactionManager() {
    runner
        .withBean(
            DataSourceTransactionManager.class,
            () -> new DataSourceTransactionManager(new DriverManagerDataSource()))
        .run(context -> assertThat(context).hasNotFailed());
  }

  /** JTA's entry point, never called: the check looks at the bean's type only. */
  private static UserTransaction userTransaction() {
    return (UserTransaction)
        Proxy.newProxyInstance(
            UserTransaction.class.getClassLoader(),
            new Class<?>[] {UserTransaction.class},
            (proxy, method, args) -> {
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
