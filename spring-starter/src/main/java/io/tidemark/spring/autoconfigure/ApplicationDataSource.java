package io.tidemark.spring.autoconfigure;

import io.tidemark.dialect.Dialect;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.PropertyResolver;

/**
 * Which of the application's {@code DataSource} beans Tidemark captures and routes, and the MySQL,
 * MariaDB or PostgreSQL URL under a JDBC URL that a tracing or failover driver wraps.
 */
final class ApplicationDataSource {

  static final String PROPERTY = "tidemark.datasource";

  /** Wrapping drivers whose URL is {@code jdbc:<prefix>:mysql:...} for the driver underneath. */
  private static final List<String> WRAPPERS = List.of("p6spy:", "otel:", "aws-wrapper:");

  private ApplicationDataSource() {}

  /**
   * The bean named by {@code tidemark.datasource}, else the only {@code DataSource} bean, else the
   * primary one.
   *
   * @throws TidemarkStartupException when the setting names no {@code DataSource}, or there are
   *     several and none is primary: routing one at random would leave the others' reads stale
   */
  static String name(ConfigurableListableBeanFactory beans, PropertyResolver properties) {
    String[] names = beans.getBeanNamesForType(javax.sql.DataSource.class, true, false);
    String named = properties.getProperty(PROPERTY);
    if (named != null && !named.isBlank()) {
      return Arrays.stream(names)
          .filter(n -> n.equals(named) || Arrays.asList(beans.getAliases(n)).contains(named))
          .findFirst()
          .orElseThrow(
              () ->
                  new TidemarkStartupException(
                      PROPERTY + "=" + named + " names no DataSource bean of this application.",
                      "Set " + PROPERTY + " to one of: " + String.join(", ", names) + "."));
    }
    if (names.length == 1) {
      return names[0];
    }
    List<String> primary =
        Arrays.stream(names)
            .filter(n -> beans.containsBeanDefinition(n) && beans.getBeanDefinition(n).isPrimary())
            .toList();
    if (primary.size() == 1) {
      return primary.get(0);
    }
    throw new TidemarkStartupException(
        "Tidemark does not know which DataSource to capture and route: the application has "
            + names.length
            + " DataSource beans ("
            + String.join(", ", names)
            + ") and "
            + (primary.isEmpty() ? "none" : "more than one")
            + " is @Primary.",
        "Set "
            + PROPERTY
            + " to the bean whose source has the replicas in tidemark.replicas (one of "
            + String.join(", ", names)
            + "), or set tidemark.enabled=false.");
  }

  /**
   * The {@code jdbc:mysql:} URL that {@code url} reaches Connector/J with, directly or under a
   * wrapping driver (P6Spy, OpenTelemetry, the AWS JDBC wrapper); null for any other database.
   */
  static @Nullable String connectorJUrl(@Nullable String url) {
    String database = databaseUrl(url);
    return database != null && database.startsWith("jdbc:mysql:") ? database : null;
  }

  /**
   * The URL of a database Tidemark reads ({@link Dialect#forUrl}) under {@code url}, as {@link
   * #connectorJUrl} finds it; null for any other database.
   */
  static @Nullable String databaseUrl(@Nullable String url) {
    if (url == null || !url.startsWith("jdbc:")) {
      return null;
    }
    String rest = url.substring("jdbc:".length());
    for (String wrapper : WRAPPERS) {
      if (rest.toLowerCase(Locale.ROOT).startsWith(wrapper)) {
        rest = rest.substring(wrapper.length());
        break;
      }
    }
    return Dialect.forUrl("jdbc:" + rest) != null ? "jdbc:" + rest : null;
  }
}
