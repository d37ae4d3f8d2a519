package io.tidemark.spring.autoconfigure;

import com.zaxxer.hikari.HikariDataSource;
import java.util.function.Predicate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Asks Connector/J to report each commit's GTID with the commit's reply, on the application's own
 * Hikari pool, unless its URL already decides: capture then costs no extra round trip.
 */
final class SessionTrackingPostProcessor implements BeanPostProcessor {

  private static final String TRACK_SESSION_STATE = "trackSessionState";
  private static final Log log = LogFactory.getLog(SessionTrackingPostProcessor.class);

  private final Predicate<String> applicationDataSource;

  SessionTrackingPostProcessor(Predicate<String> applicationDataSource) {
    this.applicationDataSource = applicationDataSource;
  }

  @Override
  public Object postProcessBeforeInitialization(Object bean, String name) {
    if (bean instanceof HikariDataSource pool
        && ApplicationDataSource.connectorJUrl(pool.getJdbcUrl()) != null
        && !pool.getJdbcUrl().contains(TRACK_SESSION_STATE)
        && !pool.getDataSourceProperties().containsKey(TRACK_SESSION_STATE)
        && applicationDataSource.test(name)) {
      try {
        pool.addDataSourceProperty(TRACK_SESSION_STATE, "true");
      } catch (IllegalStateException e) {
        log.info(
            "Pool "
                + name
                + " already started; commits are captured with a query each. Add "
                + TRACK_SESSION_STATE
                + "=true to its URL to save it.");
      }
    }
    return bean;
  }
}
