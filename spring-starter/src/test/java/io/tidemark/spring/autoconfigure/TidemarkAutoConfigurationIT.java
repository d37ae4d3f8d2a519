package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.jdbc.CapturingDataSource;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadResult;
import io.tidemark.scope.ScopeStore;
import io.tidemark.spring.routing.RoutingDataSourceBeanPostProcessor;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenConfig;
import io.tidemark.topology.ExecutionHistory;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link TidemarkAutoConfiguration} on the real topology: on, off, with the user's own beans, and
 * without optional libraries.
 */
class TidemarkAutoConfigurationIT {

  @RegisterExtension static final TopologyDatabase database = new TopologyDatabase("autoconfig");

  private ApplicationContextRunner runner() {
    return database.runner("s");
  }

  @Test
  void wrapsTheDataSourceAndKeepsThePoolReachable() {
    runner()
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource dataSource = context.getBean(DataSource.class);
              assertThat(RoutingDataSourceBeanPostProcessor.applicationPool(dataSource))
                  .isNotSameAs(dataSource);
              assertThat(dataSource.isWrapperFor(HikariDataSource.class)).isTrue();
              assertThat(dataSource.unwrap(HikariDataSource.class).getJdbcUrl())
                  .isEqualTo(database.topology().source().jdbcUrl(database.name()));
              assertThat(context)
                  .hasSingleBean(ConsistentReader.class)
                  .hasSingleBean(TokenCodec.class)
                  .hasSingleBean(ExecutionHistory.class)
                  .doesNotHaveBean(ScopeStore.class);
              assertThat(context.getBean(NodeRuntime.class).view().snapshot().nodes())
                  .extracting(n -> n.name() + ":" + n.writable())
                  .containsExactly("source:true", "replica-1:false");
            });
  }

  @Test
  void capturesCommitsFromTheReplyWithoutAQuery() {
    runner()
        .run(
            context -> {
              database
                  .topology()
                  .source()
                  .execute("CREATE TABLE IF NOT EXISTS `" + database.name() + "`.t (id INT)");
              JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
              GtidSet written;
              try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
                jdbc.update("INSERT INTO t VALUES (1)");
                written = binding.context().gtids();
              }
              assertThat(written.isEmpty()).isFalse();
              CapturingDataSource.Stats stats = context.getBean(NodeRuntime.class).writes().stats();
              assertThat(stats.tracked()).isEqualTo(1);
              assertThat(stats.queried()).isZero();
            });
  }

  @Test
  void capturesAndProbesThroughAWrappingDriver() {
    runner()
        .withPropertyValues(
            "spring.datasource.url=jdbc:p6spy:"
                + database.topology().source().jdbcUrl(database.name()).substring(5),
            "spring.datasource.driver-class-name=com.p6spy.engine.spy.P6SpyDriver")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource dataSource = context.getBean(DataSource.class);
              assertThat(dataSource.unwrap(HikariDataSource.class).getJdbcUrl())
                  .startsWith("jdbc:p6spy:mysql:");
              assertThat(context.getBean(NodeRuntime.class).view().snapshot().nodes())
                  .extracting(n -> n.name() + ":" + n.available())
                  .containsExactly("source:true", "replica-1:true");
              database
                  .topology()
                  .source()
                  .execute("CREATE TABLE IF NOT EXISTS `" + database.name() + "`.spied (id INT)");
              JdbcTemplate jdbc = new JdbcTemplate(dataSource);
              try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
                jdbc.update("INSERT INTO spied VALUES (1)");
                assertThat(binding.context().gtids().isEmpty()).isFalse();
                ReadResult<Integer> read =
                    context
                        .getBean(ConsistentReader.class)
                        .read(
                            connection -> {
                              try (ResultSet rows =
                                  connection
                                      .createStatement()
                                      .executeQuery("SELECT COUNT(*) FROM spied")) {
                                rows.next();
                                return rows.getInt(1);
                              }
                            });
                assertThat(read.value()).as("the replica has the write").isPositive();
                assertThat(read.record().role()).isEqualTo(NodeRole.REPLICA);
              }
              CapturingDataSource.Stats stats = context.getBean(NodeRuntime.class).writes().stats();
              assertThat(stats.tracked()).as("from the reply, through the spy").isEqualTo(1);
              assertThat(stats.queried()).isZero();
            });
  }

  @Test
  void turnedOffLeavesTheDataSourceAlone() {
    runner()
        .withPropertyValues("tidemark.enabled=false")
        .run(
            context -> {
              assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
              assertThat(context).doesNotHaveBean(ConsistentReader.class);
            });
  }

  @Test
  void usesTheApplicationsOwnCodecAndStore() {
    runner()
        .withUserConfiguration(OwnBeans.class)
        .withPropertyValues("tidemark.scope.store=CAFFEINE")
        .run(
            context -> {
              assertThat(context.getBean(TokenCodec.class)).isSameAs(OwnBeans.CODEC);
              assertThat(context.getBean(ScopeStore.class)).isSameAs(OwnBeans.STORE);
            });
  }

  @Test
  void usesTheApplicationsOwnReader() {
    runner()
        .withUserConfiguration(OwnReader.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(ConsistentReader.class);
              assertThat(context.getBean(ConsistentReader.class))
                  .isSameAs(context.getBean(OwnReader.class).reader);
            });
  }

  @Test
  void caffeineScopeStoreWhenAsked() {
    runner()
        .withPropertyValues("tidemark.scope.store=CAFFEINE")
        .run(context -> assertThat(context).hasSingleBean(ScopeStore.class));
  }

  @Test
  void redisScopeStoreWithoutLettuceFailsTheStartWithWhatToAdd() {
    runner()
        .withClassLoader(new FilteredClassLoader("io.lettuce"))
        .withPropertyValues(
            "tidemark.scope.store=REDIS", "tidemark.scope.redis-uri=redis://127.0.0.1:1")
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context).hasMessageContaining("Lettuce"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "tidemark.scope.store=CAFFEINE | tidemark.scope.store is CAFFEINE",
        "tidemark.scope.store=REDIS,tidemark.scope.redis-uri=redis://127.0.0.1:1,"
            + "tidemark.scope.near-cache=true | tidemark.scope.near-cache is true"
      })
  void caffeineAskedForWithoutCaffeineFailsTheStartWithWhatToAdd(
      String properties, String setting) {
    runner()
        .withClassLoader(new FilteredClassLoader("com.github.benmanes.caffeine"))
        .withPropertyValues(properties.split(","))
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context)
                    .hasMessage(setting + ", but Caffeine is not on the classpath.")
                    .satisfies(
                        e ->
                            assertThat(((TidemarkStartupException) e).action())
                                .contains("com.github.ben-manes.caffeine:caffeine")));
  }

  @Test
  void anUnreachableScopeStoreFailsTheStartWithoutThePasswordOfItsUri() {
    runner()
        .withPropertyValues(
            "tidemark.scope.store=REDIS",
            "tidemark.scope.redis-uri=redis://app:s3cret-pw@127.0.0.1:1")
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context)
                    .hasMessageContaining(
                        "scope store at tidemark.scope.redis-uri redis://127.0.0.1:1")
                    .hasMessageNotContaining("s3cret-pw"));
  }

  @Test
  void noReplicasFailsTheStartWithWhatToDo() {
    runner()
        .withPropertyValues("tidemark.replicas=")
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context).hasMessageContaining("no replica"));
  }

  @Test
  void wrongReplicaPasswordFailsTheStart() {
    runner()
        .withPropertyValues("tidemark.replicas[0].password=wrong")
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context).hasMessageContaining("refused"));
  }

  @Test
  void missingSecretWithSharedScopesFailsTheStart() {
    runner()
        .withPropertyValues(
            "tidemark.token.secret=",
            "tidemark.scope.store=REDIS",
            "tidemark.scope.redis-uri=redis://127.0.0.1:1")
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context)
                    .hasMessageContaining("tidemark.token.secret"));
  }

  @Test
  void missingSecretOnASingleInstanceSignsWithARandomOne() {
    runner()
        .withPropertyValues("tidemark.token.secret=")
        .run(
            context -> {
              TokenCodec codec = context.getBean(TokenCodec.class);
              String token = codec.encode(codec.issue("default", GtidSet.parse(UUID + ":1")));
              assertThat(codec.verify(token, "default").gtids().toString()).isEqualTo(UUID + ":1");
            });
  }

  private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  @Configuration(proxyBeanMethods = false)
  static class OwnReader {
    @Nullable ConsistentReader reader;

    @Bean
    ConsistentReader ownReader(NodeRuntime nodes) {
      reader = ConsistentReader.builder(nodes.selector().routes(nodes.pools())).build();
      return reader;
    }
  }

  static class OwnBeans {
    static final TokenCodec CODEC =
        new TokenCodec(
            TokenConfig.builder(
                    KeyRing.builder()
                        .key("own", "o".repeat(32).getBytes(StandardCharsets.UTF_8))
                        .active("own")
                        .build())
                .build());
    static final ScopeStore STORE =
        io.tidemark.scope.ScopeStore.caffeine(io.tidemark.scope.ScopeStoreConfig.defaults());

    @Bean
    TokenCodec ownCodec() {
      return CODEC;
    }

    @Bean
    ScopeStore ownStore() {
      return STORE;
    }
  }
}
