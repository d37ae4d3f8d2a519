package io.tidemark.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The testkit's sample test, as the documentation shows it, run against the testkit's servers. */
// tag::testkit[]
@ExtendWith(TestkitExtension.class) // one topology and one Redis per test JVM
class OrdersIT {
  @Test
  void readsOwnWrite(MySqlTopology topology, RedisServer redis) throws Exception {
    String db = topology.createDatabase("orders"); // isolates tests sharing the topology
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    String gtids = topology.source().gtidExecuted();
    assertThat(topology.replica().awaitGtidSet(gtids, Duration.ofSeconds(5))).isTrue();
  }
}
// end::testkit[]
