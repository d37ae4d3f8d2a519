package io.tidemark.demo;

import com.zaxxer.hikari.HikariDataSource;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.cache.RevisionGuardedCache;
import io.tidemark.cache.RevisionGuardedCacheConfig;
import io.tidemark.cache.ValueCodec;
import io.tidemark.spring.RevisionGuardedCacheManager;
import io.tidemark.testkit.SkewedClock;
import io.tidemark.token.TokenCodec;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

/**
 * The orders service: JdbcTemplate and JPA (with Spring Boot's defaults) on the source and its
 * replicas through the Tidemark starter, a revision-guarded Redis cache on the read endpoint, and a
 * client of its peer instance.
 */
@SpringBootApplication
@EnableCaching
public class OrdersApplication {

  /**
   * Runs one instance against the servers its properties name, e.g. {@code
   * --spring.datasource.url=jdbc:mysql://db1:3306/shop --tidemark.replicas[0].url=...
   * --tidemark.scope.redis-uri=redis://cache:6379 --demo.peer-url=http://other:8080}.
   */
  public static void main(String[] args) {
    start(args);
  }

  static ConfigurableApplicationContext start(String... args) {
    return start(List.of(), args);
  }

  /** As {@link #start(String...)}, with {@code initializers} run before the beans are made. */
  static ConfigurableApplicationContext start(
      List<ApplicationContextInitializer<ConfigurableApplicationContext>> initializers,
      String... args) {
    SpringApplication application = new SpringApplication(OrdersApplication.class);
    initializers.forEach(application::addInitializers);
    return application.run(args);
  }

  /** Not a {@code DataSource} bean: the application's only one is the source's. */
  @Bean(destroyMethod = "close")
  PlainReplicaReads plainReplicaReads(
      @Value("${tidemark.replicas[0].url}") String url,
      @Value("${spring.datasource.username}") String user,
      @Value("${spring.datasource.password}") String password) {
    HikariDataSource pool = new HikariDataSource();
    pool.setPoolName("plain-replica");
    pool.setJdbcUrl(url);
    pool.setUsername(user);
    pool.setPassword(password);
    pool.setMaximumPoolSize(8);
    return new PlainReplicaReads(pool);
  }

  @Bean
  RestClient peer(RestClient.Builder builder, @Value("${demo.peer-url}") String peerUrl) {
    return builder.baseUrl(peerUrl).build();
  }

  @Bean(destroyMethod = "shutdown")
  RedisClient cacheRedis(@Value("${tidemark.scope.redis-uri}") String uri) {
    return RedisClient.create(uri);
  }

  @Bean(destroyMethod = "close")
  StatefulRedisConnection<String, String> cacheConnection(RedisClient cacheRedis) {
    return cacheRedis.connect();
  }

  @Bean
  CacheManager cacheManager(
      StatefulRedisConnection<String, String> cacheConnection,
      @Value("${tidemark.cluster}") String cluster,
      @Value("${spring.datasource.url}") String url) {
    // Order ids are per database: services on other databases sharing this Redis must not see
    // each other's orders. Named by cluster and database, not by URL: instances that reach the
    // same database by other addresses share the cache.
    RevisionGuardedCacheConfig cache =
        RevisionGuardedCacheConfig.builder()
            .keyPrefix(
                RevisionGuardedCacheConfig.DEFAULT_KEY_PREFIX
                    + Integer.toHexString((cluster + "/" + database(url)).hashCode())
                    + ":")
            .build();
    ValueCodec<Object> orders =
        new ValueCodec<>() {
          @Override
          public String encode(Object value) {
            return ((Order) value).encode();
          }

          @Override
          public Object decode(String text) {
            return Order.decode(text);
          }
        };
    return new RevisionGuardedCacheManager(
        new ConcurrentMapCacheManager(),
        Set.of("orders"),
        name -> RevisionGuardedCache.redis(cacheConnection, orders, cache));
  }

  /** The database a JDBC URL names: its path, without the options. */
  static String database(String url) {
    int query = url.indexOf('?');
    String path = query < 0 ? url : url.substring(0, query);
    return path.substring(path.lastIndexOf('/') + 1);
  }

  @Bean
  LiveFeed liveFeed() {
    return new LiveFeed(Clock.systemUTC());
  }

  @Bean(destroyMethod = "close")
  BackgroundLoad backgroundLoad(LiveFeed feed) {
    return new BackgroundLoad(feed);
  }

  @Bean(destroyMethod = "close")
  LagSampler lagSampler(MeterRegistry registry, LiveFeed feed) {
    return LagSampler.start(registry, feed, Duration.ofMillis(250));
  }

  @Bean
  TokenInspector tokenInspector(TokenCodec codec, @Value("${tidemark.cluster}") String cluster) {
    return new TokenInspector(codec, cluster);
  }

  /**
   * The clock tokens are stamped and aged with: the system clock until a fault moves it, to show an
   * instance whose time drifted.
   */
  @Bean
  SkewedClock tokenClock() {
    return new SkewedClock(Duration.ZERO);
  }
}
