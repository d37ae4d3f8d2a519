package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

/**
 * Two users edit one order through forms that load it under {@code @ReadYourWrites}, change one
 * field and save the whole entity, as a server-rendered application does: the second user's save
 * must not write back a replica's copy that lacks the first user's edit. Neither user's token names
 * the other's write, so only the source has it.
 */
@ExtendWith(TestkitExtension.class)
class LostEditIT {

  private static final int EDITS = 20;
  private static final AtomicLong ids = new AtomicLong(70_000);
  private static final RestClient http = RestClient.create();

  private static MySqlTopology topology;
  private static String db;
  private static ConfigurableApplicationContext first;
  private static ConfigurableApplicationContext second;

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    db = ShopApplication.database(topology, "edits");
    first = ShopApplication.startWeb(topology, db);
    second = ShopApplication.startWeb(topology, db);
  }

  @AfterAll
  static void stop() {
    first.close();
    second.close();
  }

  @AfterEach
  void resume() {
    topology.replica().resumeApplier();
  }

  @Test
  void aFormSaveDoesNotWriteBackAnotherUsersEditItReadFromALaggingReplica() {
    int lost = 0;
    for (int i = 0; i < EDITS; i++) {
      lost += editsLost(second);
    }

    assertThat(lost).as("edits lost, of %d", EDITS).isZero();
  }

  @Test
  void withUnsafeMethodReadsOnReplicasTheSameSaveLosesTheEdit() {
    try (ConfigurableApplicationContext onReplicas =
        ShopApplication.startWeb(topology, db, "tidemark.web.unsafe-method-reads=replica")) {
      assertThat(editsLost(onReplicas)).as("the first user's edit, written over").isEqualTo(1);
    }
  }

  /** Whether the second user's save, on {@code by}, wrote over the first user's edit: 1 or 0. */
  private static int editsLost(ConfigurableApplicationContext by) {
    long id = ids.incrementAndGet();
    post(first, "/orders/" + id + "?customer=ada");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    topology.replica().pauseApplier();
    try {
      post(first, "/jpa/orders/" + id + "/edit?status=PAID");
      post(by, "/jpa/orders/" + id + "/edit?customer=bob");
    } finally {
      topology.replica().resumeApplier();
    }
    String row =
        topology
            .source()
            .queryString(
                "SELECT CONCAT(status, ' ', customer) FROM `" + db + "`.orders WHERE id = " + id);
    assertThat(row).endsWith(" bob");
    return row.equals("PAID bob") ? 0 : 1;
  }

  private static void post(ConfigurableApplicationContext app, String path) {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    http.post().uri("http://127.0.0.1:" + port + path).retrieve().toBodilessEntity();
  }
}
