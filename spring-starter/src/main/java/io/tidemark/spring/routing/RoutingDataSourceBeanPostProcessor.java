package io.tidemark.spring.routing;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.jdbc.CapturingDataSource;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Wraps the application's {@code DataSource} (the only one, or the primary) in a {@link
 * RoutingDataSource}; the topology behind it is created on first use, because it is built from that
 * very pool.
 */
public final class RoutingDataSourceBeanPostProcessor
    implements BeanPostProcessor, BeanFactoryAware {

  private static final String TRACK_SESSION_STATE = "trackSessionState";
  private static final Log log = LogFactory.getLog(RoutingDataSourceBeanPostProcessor.class);

  private final Supplier<CapturingDataSource> writes;
  private @Nullable ConfigurableListableBeanFactory beans;

  /**
   * @param writes connections to the writable source, capturing; asked for at the first connection,
   *     since the topology is built from the very pool this wraps
   */
  public RoutingDataSourceBeanPostProcessor(Supplier<CapturingDataSource> writes) {
    this.writes = writes;
  }

  /** The application's own pool: {@code dataSource} unless it is the wrapper this made. */
  public static DataSource applicationPool(DataSource dataSource) {
    return dataSource instanceof RoutingDataSource wrapped ? wrapped.target() : dataSource;
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beans = (ConfigurableListableBeanFactory) beanFactory;
  }

  /**
   * Asks Connector/J to report each commit's GTID with the commit's reply, on the application's own
   * Hikari pool, unless the URL already decides: capture then costs no extra round trip.
   */
  @Override
  public Object postProcessBeforeInitialization(Object bean, String name) {
    if (bean instanceof HikariDataSource pool
        && pool.getJdbcUrl() != null
        && pool.getJdbcUrl().startsWith("jdbc:mysql:")
        && !pool.getJdbcUrl().contains(TRACK_SESSION_STATE)
        && !pool.getDataSourceProperties().containsKey(TRACK_SESSION_STATE)
        && isTheApplicationDataSource(name)) {
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

  @Override
  public Object postProcessAfterInitialization(Object bean, String name) throws BeansException {
    if (bean instanceof DataSource dataSource
        && !(bean instanceof RoutingDataSource)
        && isTheApplicationDataSource(name)) {
      return new RoutingDataSource(dataSource, writes);
    }
    return bean;
  }

  private boolean isTheApplicationDataSource(String name) {
    ConfigurableListableBeanFactory beans = java.util.Objects.requireNonNull(this.beans, "beans");
    String[] names = beans.getBeanNamesForType(DataSource.class, true, false);
    if (names.length == 1) {
      return names[0].equals(name);
    }
    return beans.containsBeanDefinition(name) && beans.getBeanDefinition(name).isPrimary();
  }
}
