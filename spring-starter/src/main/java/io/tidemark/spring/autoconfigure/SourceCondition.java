package io.tidemark.spring.autoconfigure;

import java.util.Arrays;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.MethodMetadata;
import org.springframework.util.ClassUtils;

/**
 * Whether the application has a {@code DataSource} Tidemark can protect, told from the settings and
 * bean definitions before any bean exists: off for no {@code DataSource} and for another database
 * (an H2 of the tests); every other case goes on and is checked on the bean itself at start, where
 * a DataSource that is not MySQL, MariaDB or PostgreSQL after all stops the start.
 */
abstract class SourceCondition extends SpringBootCondition implements ConfigurationCondition {

  static final String DISABLED = "tidemark.enabled=false";

  private static final String BOOT_JDBC = "org.springframework.boot.jdbc.autoconfigure.";

  @Override
  public ConfigurationPhase getConfigurationPhase() {
    return ConfigurationPhase.REGISTER_BEAN;
  }

  /** Why Tidemark stays off in this application; null when it goes on. */
  static @Nullable String whyOff(ConditionContext context) {
    return whyOff(
        Objects.requireNonNull(context.getBeanFactory(), "bean factory"),
        context.getEnvironment(),
        context.getClassLoader());
  }

  /** Why Tidemark stays off with these beans and settings; null when it goes on. */
  static @Nullable String whyOff(
      ConfigurableListableBeanFactory beans,
      Environment environment,
      @Nullable ClassLoader classLoader) {
    if (!environment.getProperty("tidemark.enabled", Boolean.class, true)) {
      return DISABLED;
    }
    String[] dataSources = beans.getBeanNamesForType(DataSource.class, true, false);
    if (dataSources.length == 0) {
      return usesR2dbc(beans, classLoader)
          ? "the application has no DataSource; its R2DBC ConnectionFactory is not protected (Tidemark"
              + " routes JDBC only)"
          : "the application has no DataSource";
    }
    String named = environment.getProperty(ApplicationDataSource.PROPERTY);
    if (named != null && !named.isBlank()) {
      return null;
    }
    String url = environment.getProperty("spring.datasource.url");
    boolean boots = dataSources.length == 1 && madeByBoot(beans, dataSources[0]);
    if (boots && url != null && !url.isBlank()) {
      return ApplicationDataSource.databaseUrl(url) == null
          ? "spring.datasource.url is a " + scheme(url) + " URL, not MySQL, MariaDB or PostgreSQL"
          : null;
    }
    if (boots && !hasOwnConnectionDetails(beans)) {
      EmbeddedDatabaseConnection embedded = EmbeddedDatabaseConnection.get(classLoader);
      if (embedded != EmbeddedDatabaseConnection.NONE) {
        return "spring.datasource.url is not set, so the DataSource is an embedded "
            + embedded.name()
            + " database";
      }
    }
    return null;
  }

  /** Whether the application has an R2DBC {@code ConnectionFactory}, asked without R2DBC's API. */
  private static boolean usesR2dbc(
      ConfigurableListableBeanFactory beans, @Nullable ClassLoader classLoader) {
    String type = "io.r2dbc.spi.ConnectionFactory";
    return ClassUtils.isPresent(type, classLoader)
        && beans.getBeanNamesForType(ClassUtils.resolveClassName(type, classLoader), true, false)
                .length
            > 0;
  }

  private static boolean madeByBoot(ConfigurableListableBeanFactory beans, String name) {
    if (!beans.containsBeanDefinition(name)) {
      return false;
    }
    BeanDefinition definition = beans.getBeanDefinition(name);
    MethodMetadata factory =
        definition instanceof AnnotatedBeanDefinition annotated
            ? annotated.getFactoryMethodMetadata()
            : null;
    return factory != null && factory.getDeclaringClassName().startsWith(BOOT_JDBC);
  }

  /** A {@code @ServiceConnection} or the application's own details, not Boot's from properties. */
  private static boolean hasOwnConnectionDetails(ConfigurableListableBeanFactory beans) {
    return Arrays.stream(beans.getBeanNamesForType(JdbcConnectionDetails.class, true, false))
        .anyMatch(name -> !madeByBoot(beans, name));
  }

  private static String scheme(String url) {
    String[] parts = url.split(":", 3);
    return parts.length >= 2 ? parts[0] + ":" + parts[1] : "non-JDBC";
  }

  /** Matches where Tidemark goes on. */
  static final class Protected extends SourceCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata type) {
      String off = whyOff(context);
      return off == null
          ? ConditionOutcome.match("a DataSource Tidemark can protect, checked at start")
          : ConditionOutcome.noMatch(off);
    }
  }

  /** Matches where Tidemark stays off. */
  static final class Unprotected extends SourceCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata type) {
      String off = whyOff(context);
      return off != null
          ? ConditionOutcome.match(off)
          : ConditionOutcome.noMatch("a DataSource Tidemark can protect");
    }
  }
}
