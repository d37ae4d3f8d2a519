package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.spring.TestTopology;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The quick start application's own test, as the testkit page shows it: {@code @TestTopology} gives
 * it the source, the replica and Redis; the read of its own write waits for the replica. Runs on
 * whichever backend the testkit is set to: local processes, or containers.
 */
// tag::test-topology[]
@SpringBootTest(
    properties = {
      "tidemark.token.secret=", // one instance: it signs with a random secret of its own
      "orders.read-timeout=2s" // the read below may wait this long for the replica
    })
@TestTopology // spring.datasource.*, tidemark.replicas[*] and tidemark.scope.redis-uri
class OrdersTopologyIT {

  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;

  @Test
  void readsItsOwnWriteOnTheReplica() {
    jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, customer TEXT)");
    MySqlNode replica = SharedServers.topology().replica();
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      replica.pauseApplier(); // the replica lags behind the write
      orders.create(1, "ada");
      replica.resumeApplierAfter(Duration.ofMillis(200));

      assertThat(orders.customer(1)).contains("ada");
      ExecutionRecord read = unit.context().lastRead();
      assertThat(read.role()).isEqualTo(NodeRole.REPLICA);
      assertThat(read.reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    } finally {
      replica.resumeApplier();
    }
  }
}
// end::test-topology[]
