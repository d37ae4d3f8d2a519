package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The replica pools take the application's pool settings, then each replica's own, then the
 * customizer beans; what reads rely on stays as reads need it. The nodes do not answer.
 */
class ReplicaPoolSettingsTests {

  private final ApplicationContextRunner runner =
      UnreachableNodes.runner()
          .withPropertyValues(
              "tidemark.replicas[1].url=jdbc:mysql://127.0.0.1:3/shop",
              "spring.datasource.hikari.connection-timeout=1234",
              "spring.datasource.hikari.keepalive-time=45000",
              "spring.datasource.hikari.maximum-pool-size=3",
              "spring.datasource.hikari.connection-test-query=SELECT 1",
              "spring.datasource.hikari.data-source-properties.cachePrepStmts=true");

  @Test
  void theApplicationsSettingsThenTheReplicasOwn() {
    runner
        .withPropertyValues(
            "tidemark.replicas[0].hikari.connection-timeout=2500",
            "tidemark.replicas[0].hikari.data-source-properties.sslMode=REQUIRED")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              HikariDataSource first = pool(context, "replica-1");
              HikariDataSource second = pool(context, "replica-2");
              assertThat(first.getConnectionTimeout()).isEqualTo(2500);
              assertThat(second.getConnectionTimeout()).isEqualTo(1234);
              assertThat(first.getKeepaliveTime()).isEqualTo(45000);
              assertThat(first.getDataSourceProperties())
                  .containsEntry("cachePrepStmts", "true")
                  .containsEntry("sslMode", "REQUIRED");
              assertThat(second.getDataSourceProperties()).doesNotContainKey("sslMode");
            });
  }

  @Test
  void whatReadsRelyOnStays() {
    runner
        .withPropertyValues(
            "tidemark.replicas[0].hikari.pool-name=mine",
            "tidemark.replicas[0].hikari.read-only=true")
        .run(
            context -> {
              HikariDataSource pool = pool(context, "replica-1");
              assertThat(pool.getPoolName()).isEqualTo("tidemark-replica-1");
              assertThat(pool.getJdbcUrl()).isEqualTo("jdbc:mysql://127.0.0.1:2/shop");
              assertThat(pool.getMaximumPoolSize()).isEqualTo(64);
              assertThat(pool.isReadOnly()).isFalse();
              assertThat(pool.isAutoCommit()).isTrue();
              assertThat(pool.getConnectionTestQuery()).isNull();
            });
  }

  @Test
  void customizersComeLast() {
    runner
        .withPropertyValues("tidemark.replicas[0].hikari.leak-detection-threshold=3000")
        .withBean(
            ReplicaPoolCustomizer.class,
            () ->
                (replica, pool) -> {
                  if (replica.equals("replica-1")) {
                    pool.setLeakDetectionThreshold(9000);
                    pool.setPoolName("renamed");
                  }
                })
        .run(
            context -> {
              assertThat(pool(context, "replica-1").getLeakDetectionThreshold()).isEqualTo(9000);
              assertThat(pool(context, "replica-1").getPoolName()).isEqualTo("tidemark-replica-1");
              assertThat(pool(context, "replica-2").getLeakDetectionThreshold()).isZero();
            });
  }

  @Test
  void anInvalidSettingStopsTheStartNamingTheReplica() {
    runner
        .withPropertyValues("tidemark.replicas[1].hikari.connection-timeout=soon")
        .run(
            context ->
                TidemarkRunners.failedWithTidemarks(context)
                    .hasMessageContaining("The pool settings of tidemark.replicas[1] are invalid"));
  }

  private static HikariDataSource pool(AssertableApplicationContext context, String replica) {
    return (HikariDataSource) context.getBean(NodeRuntime.class).pools().get(replica);
  }
}
