package io.tidemark.spring.autoconfigure;

import com.zaxxer.hikari.HikariDataSource;
import io.lettuce.core.resource.ClientResources;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadListener;
import io.tidemark.scope.ScopeStore;
import io.tidemark.spring.routing.RoutingDataSourceBeanPostProcessor;
import io.tidemark.token.TokenCodec;
import io.tidemark.topology.ExecutionHistory;
import io.tidemark.topology.NodeConfig;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.web.context.reactive.ReactiveWebApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.util.ClassUtils;

/**
 * Tidemark's core beans: the application's {@code DataSource} wrapped so that writes are captured
 * and pinned reads reach their connection, the topology of the source and its replicas, the token
 * codec, the reader and the scope store. The advice that routes reads is {@link
 * io.tidemark.spring.routing.TidemarkRoutingAutoConfiguration}'s.
 */
@AutoConfiguration(
    after = DataSourceAutoConfiguration.class,
    afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnBooleanProperty(name = "tidemark.enabled", matchIfMissing = true)
@Conditional(SourceCondition.Protected.class)
@EnableConfigurationProperties(TidemarkProperties.class)
public final class TidemarkAutoConfiguration {

  private static final Log log = LogFactory.getLog(TidemarkAutoConfiguration.class);

  private static final String CAFFEINE = "com.github.benmanes.caffeine.cache.Caffeine";

  /**
   * Tokens are stamped and aged with the application's {@link InstantSource} (a {@code
   * java.time.Clock} is one) when it has exactly one, else with the system clock.
   */
  @Bean
  @ConditionalOnMissingBean
  TokenCodec tidemarkTokenCodec(
      TidemarkProperties properties, ObjectProvider<InstantSource> clocks) {
    return new TokenCodec(
        CoreConfigs.tokenConfig(properties, clocks.getIfUnique(InstantSource::system)));
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  NodeRuntime tidemarkNodes(
      TidemarkProperties properties,
      ConfigurableListableBeanFactory beans,
      Environment environment,
      ObjectProvider<JdbcConnectionDetails> connectionDetails,
      ObjectProvider<ReplicaConnectionDetails> replicaConnections,
      ObjectProvider<ReplicaPoolCustomizer> customizers) {
    String name = ApplicationDataSource.name(beans, environment);
    List<String> others =
        Arrays.stream(beans.getBeanNamesForType(DataSource.class, true, false))
            .filter(other -> !other.equals(name))
            .toList();
    if (!others.isEmpty()) {
      log.info(
          "Tidemark captures and routes DataSource "
              + name
              + " only: reads and writes through "
              + String.join(", ", others)
              + " wait for no token and add none.");
    }
    DataSource source =
        RoutingDataSourceBeanPostProcessor.applicationPool(beans.getBean(name, DataSource.class));
    return NodeRuntime.start(
        properties,
        sourceNode(properties, name, source, connectionDetails.getIfAvailable()),
        source,
        replicaConnections.orderedStream().toList(),
        Binder.get(environment),
        customizers.orderedStream().toList());
  }

  @Bean
  @ConditionalOnMissingBean
  ExecutionHistory tidemarkExecutionHistory(TidemarkProperties properties) {
    return new ExecutionHistory(properties.getHistory().getCapacity());
  }

  /**
   * The reader; the execution history, then every {@link ReadListener} bean in bean order (the
   * metrics and the observation), are told of each read.
   */
  @Bean
  @ConditionalOnMissingBean
  ConsistentReader tidemarkReader(
      NodeRuntime nodes,
      TidemarkProperties properties,
      ExecutionHistory history,
      ObjectProvider<ReadListener> listeners) {
    ConsistentReader.Builder reader =
        CoreConfigs.readerLimits(
                ConsistentReader.builder(nodes.selector().routes(nodes.pools())), properties)
            .listener(ReadListener.ofRecords(history));
    listeners.orderedStream().forEach(reader::listener);
    return reader.build();
  }

  @Bean
  StartupReport tidemarkStartupReport(
      TidemarkProperties properties,
      NodeRuntime nodes,
      Environment environment,
      ObjectProvider<TokenCarriers> carriers) {
    return new StartupReport(properties, nodes, webEnabled(environment), carriers);
  }

  @Bean
  @ConditionalOnWebApplication
  WebCheck tidemarkWebCheck(Environment environment, ApplicationContext context) {
    return new WebCheck(context instanceof ReactiveWebApplicationContext, webEnabled(environment));
  }

  /** {@code tidemark.web.enabled}, as the web configurations' condition reads it. */
  private static boolean webEnabled(Environment environment) {
    return environment.getProperty("tidemark.web.enabled", Boolean.class, true);
  }

  @Bean
  static JtaCheck tidemarkJtaCheck(ListableBeanFactory beans) {
    return new JtaCheck(beans);
  }

  @Bean
  static RoutingDataSourceBeanPostProcessor tidemarkDataSourceWrapper(
      ObjectProvider<NodeRuntime> nodes,
      ConfigurableListableBeanFactory beans,
      Environment environment) {
    return new RoutingDataSourceBeanPostProcessor(
        () -> nodes.getObject().writes(),
        name -> name.equals(ApplicationDataSource.name(beans, environment)));
  }

  @Bean
  static SessionTrackingPostProcessor tidemarkSessionTracking(
      ConfigurableListableBeanFactory beans, Environment environment) {
    return new SessionTrackingPostProcessor(
        name -> name.equals(ApplicationDataSource.name(beans, environment)));
  }

  /**
   * The scope store on {@code tidemark.scope.redis-uri}, else on the Redis the application
   * configured for Boot.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(ScopeStore.class)
  @ConditionalOnProperty(name = "tidemark.scope.store", havingValue = "REDIS")
  @ConditionalOnClass(name = "io.lettuce.core.RedisClient")
  ConnectedScopeStore tidemarkRedisScopeStore(
      TidemarkProperties properties,
      ObjectProvider<RedisConnector> bootRedis,
      ResourceLoader resourceLoader) {
    String uri = properties.getScope().getRedisUri();
    boolean nearCache = properties.getScope().isNearCache();
    if (nearCache && !ClassUtils.isPresent(CAFFEINE, resourceLoader.getClassLoader())) {
      throw withoutCaffeine("tidemark.scope.near-cache is true");
    }
    if (uri != null && !uri.isBlank()) {
      return ConnectedScopeStore.connect(uri, CoreConfigs.storeConfig(properties), nearCache);
    }
    RedisConnector connector = bootRedis.getIfAvailable();
    if (connector == null) {
      throw new TidemarkStartupException(
          "tidemark.scope.store is REDIS but no Redis is configured: neither"
              + " tidemark.scope.redis-uri nor Boot's spring.data.redis.* is set.",
          "Set tidemark.scope.redis-uri, e.g. redis://localhost:6379, or configure Boot's Redis"
              + " (spring-boot-starter-data-redis and spring.data.redis.*).");
    }
    return connector.connect(CoreConfigs.storeConfig(properties), nearCache);
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = {
        "io.lettuce.core.RedisClient",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails"
      })
  static class BootRedisConfiguration {

    @Bean
    @ConditionalOnBean(DataRedisConnectionDetails.class)
    RedisConnector tidemarkBootRedis(
        DataRedisConnectionDetails details, ObjectProvider<ClientResources> resources) {
      return new BootRedis(details, resources.getIfAvailable());
    }
  }

  @Bean
  @ConditionalOnMissingBean(ScopeStore.class)
  @ConditionalOnProperty(name = "tidemark.scope.store", havingValue = "REDIS")
  @ConditionalOnMissingClass("io.lettuce.core.RedisClient")
  ScopeStore tidemarkRedisScopeStoreWithoutLettuce() {
    throw new TidemarkStartupException(
        "tidemark.scope.store is REDIS, but Lettuce is not on the classpath.",
        "Add the dependency io.lettuce:lettuce-core, or choose another tidemark.scope.store.");
  }

  @Bean
  @ConditionalOnMissingBean(ScopeStore.class)
  @ConditionalOnProperty(name = "tidemark.scope.store", havingValue = "CAFFEINE")
  @ConditionalOnClass(name = CAFFEINE)
  ScopeStore tidemarkCaffeineScopeStore(TidemarkProperties properties) {
    return ScopeStore.caffeine(CoreConfigs.storeConfig(properties));
  }

  @Bean
  @ConditionalOnMissingBean(ScopeStore.class)
  @ConditionalOnProperty(name = "tidemark.scope.store", havingValue = "CAFFEINE")
  @ConditionalOnMissingClass(CAFFEINE)
  ScopeStore tidemarkCaffeineScopeStoreWithoutCaffeine() {
    throw withoutCaffeine("tidemark.scope.store is CAFFEINE");
  }

  /** Caffeine is the application's choice, not a dependency every user of the starter gets. */
  private static TidemarkStartupException withoutCaffeine(String setting) {
    return new TidemarkStartupException(
        setting + ", but Caffeine is not on the classpath.",
        "Add the dependency com.github.ben-manes.caffeine:caffeine (its version comes from Spring"
            + " Boot), or change "
            + setting.substring(0, setting.indexOf(' '))
            + ".");
  }

  /**
   * The source as probes reach it: from the pool itself where it says, since a test may have
   * replaced the DataSource that {@code spring.datasource.*} describes.
   */
  private static NodeConfig sourceNode(
      TidemarkProperties properties,
      String name,
      DataSource source,
      @Nullable JdbcConnectionDetails details) {
    String url;
    String user;
    String password;
    HikariDataSource hikari = unwrapped(source, HikariDataSource.class);
    if (hikari != null) {
      url = hikari.getJdbcUrl();
      user = hikari.getUsername();
      password = hikari.getPassword();
    } else if (source instanceof EmbeddedDatabase
        || unwrapped(source, EmbeddedDatabase.class) != null) {
      throw notSupported(name, "an embedded database");
    } else if (details != null) {
      url = details.getJdbcUrl();
      user = details.getUsername();
      password = details.getPassword();
    } else {
      throw new TidemarkStartupException(
          "Tidemark cannot tell where the source is: DataSource "
              + name
              + " is neither configured with spring.datasource.url nor a HikariDataSource.",
          "Set spring.datasource.url, username and password, or define a HikariDataSource.");
    }
    String database = ApplicationDataSource.databaseUrl(url);
    if (database == null) {
      throw notSupported(
          name, url == null ? "a DataSource without a URL" : "not MySQL, MariaDB or PostgreSQL");
    }
    try {
      return new NodeConfig(
          properties.getSourceName(),
          database,
          user == null ? "" : user,
          password == null ? "" : password);
    } catch (IllegalArgumentException e) {
      throw new TidemarkStartupException(
          "The source's connection settings are not usable by Tidemark: " + e.getMessage(),
          "Point DataSource "
              + name
              + " at the source, jdbc:mysql://host:port/database,"
              + " jdbc:mariadb://host:port/database or jdbc:postgresql://host:port/database.");
    }
  }

  private static TidemarkStartupException notSupported(String name, String what) {
    return new TidemarkStartupException(
        "DataSource "
            + name
            + " is "
            + what
            + ": Tidemark protects MySQL, MariaDB and PostgreSQL sources only.",
        "Set tidemark.enabled=false where this DataSource is used (e.g. in a test profile), or"
            + " point it at the source (jdbc:mysql://host:port/database,"
            + " jdbc:mariadb://host:port/database or jdbc:postgresql://host:port/database).");
  }

  private static <T> @Nullable T unwrapped(DataSource source, Class<T> type) {
    try {
      return source.isWrapperFor(type) ? source.unwrap(type) : null;
    } catch (SQLException e) {
      return null;
    }
  }

  /**
   * Only where Boot keeps a JPA session open for the whole request: elsewhere a session lasts a
   * transaction, and Hibernate's own mode lets {@code @Transactional(isolation)} work, which Spring
   * refuses for a connection released per transaction.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = "org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer")
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  @ConditionalOnProperty(
      name = "spring.jpa.open-in-view",
      havingValue = "true",
      matchIfMissing = true)
  static class HibernateConfiguration {

    @Bean
    HibernateConnectionRelease tidemarkHibernateConnectionRelease() {
      return new HibernateConnectionRelease();
    }
  }
}
