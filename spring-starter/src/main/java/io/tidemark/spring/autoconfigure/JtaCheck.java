package io.tidemark.spring.autoconfigure;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.transaction.jta.JtaTransactionManager;
import org.springframework.util.ClassUtils;

/**
 * Refuses to start beside JTA: an XA commit goes through the XA resource, past the connection
 * Tidemark captures on, so its GTID would be missing from every token and the next read could miss
 * the write. Nothing in the connection tells an XA commit apart, so it is stopped here.
 */
final class JtaCheck implements SmartInitializingSingleton {

  private static final String JTA_TRANSACTION_MANAGER = "jakarta.transaction.TransactionManager";

  private final ListableBeanFactory beans;

  JtaCheck(ListableBeanFactory beans) {
    this.beans = beans;
  }

  @Override
  public void afterSingletonsInstantiated() {
    if (beans.getBeanNamesForType(JtaTransactionManager.class, true, false).length > 0
        || (ClassUtils.isPresent(JTA_TRANSACTION_MANAGER, getClass().getClassLoader())
            && beans.getBeanNamesForType(
                        ClassUtils.resolveClassName(
                            JTA_TRANSACTION_MANAGER, getClass().getClassLoader()),
                        true,
                        false)
                    .length
                > 0)) {
      throw new TidemarkStartupException(
          "The application commits through JTA: XA commits bypass the connections Tidemark"
              + " captures GTIDs on, so tokens would miss those writes and reads after them could"
              + " be stale.",
          "Use a local transaction manager (DataSourceTransactionManager or JpaTransactionManager)"
              + " for the data source Tidemark wraps, or set tidemark.enabled=false.");
    }
  }
}
