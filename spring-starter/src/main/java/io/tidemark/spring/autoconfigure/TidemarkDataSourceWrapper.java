package io.tidemark.spring.autoconfigure;

import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Wraps the application's {@code DataSource} (the only one, or the primary) in a {@link
 * TidemarkDataSource}; the topology behind it is created on first use, because it is built from
 * that very pool.
 */
final class TidemarkDataSourceWrapper implements BeanPostProcessor, BeanFactoryAware {

  private final ObjectProvider<TidemarkNodes> nodes;
  private @Nullable ConfigurableListableBeanFactory beans;

  TidemarkDataSourceWrapper(ObjectProvider<TidemarkNodes> nodes) {
    this.nodes = nodes;
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beans = (ConfigurableListableBeanFactory) beanFactory;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String name) throws BeansException {
    if (bean instanceof DataSource dataSource
        && !(bean instanceof TidemarkDataSource)
        && isTheApplicationDataSource(name)) {
      return new TidemarkDataSource(dataSource, () -> nodes.getObject().writes());
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
