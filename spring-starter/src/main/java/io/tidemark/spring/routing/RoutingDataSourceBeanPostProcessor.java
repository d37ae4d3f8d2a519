package io.tidemark.spring.routing;

import io.tidemark.jdbc.CapturingDataSource;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the application's {@code DataSource} (the one the predicate accepts by bean name) in a
 * {@link RoutingDataSource}; the topology behind it is created on first use, because it is built
 * from that very pool.
 */
public final class RoutingDataSourceBeanPostProcessor implements BeanPostProcessor {

  private final Supplier<CapturingDataSource> writes;
  private final Predicate<String> applicationDataSource;

  /**
   * @param writes connections to the writable source, capturing; asked for at the first connection,
   *     since the topology is built from the very pool this wraps
   * @param applicationDataSource whether the {@code DataSource} bean of this name is the one to
   *     wrap
   */
  public RoutingDataSourceBeanPostProcessor(
      Supplier<CapturingDataSource> writes, Predicate<String> applicationDataSource) {
    this.writes = writes;
    this.applicationDataSource = applicationDataSource;
  }

  /** The application's own pool: {@code dataSource} unless it is the wrapper this made. */
  public static DataSource applicationPool(DataSource dataSource) {
    return dataSource instanceof RoutingDataSource wrapped ? wrapped.target() : dataSource;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String name) throws BeansException {
    if (bean instanceof DataSource dataSource
        && !(bean instanceof RoutingDataSource)
        && applicationDataSource.test(name)) {
      return new RoutingDataSource(dataSource, writes);
    }
    return bean;
  }
}
