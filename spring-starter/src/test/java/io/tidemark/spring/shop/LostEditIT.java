package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

/**
 * Two users edit one order through forms that load it under {@code @ReadYourWrites}, change one
 * field and save the whole entity, as a server-rendered application does: the second user's save
 * must not write back a replica's copy that lacks the first user's edit. Neither user's token names
 * the other's write, so only the source has it.
 */
class LostEditIT {

  private static final int EDITS = 20;
  private static final AtomicLong ids = new AtomicLong(70_000);
  private static final RestClient http = RestClient.create();

  @RegisterExtension static final ShopInstances shops = new ShopInstances("edits");

  private static ConfigurableApplicationContext first;
  private static ConfigurableApplicationContext second;

  @BeforeAll
  static void start() {
    first = shops.startWeb();
    second = shops.startWeb();
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
        ShopApplication.startWeb(
            shops.topology(), shops.db(), "tidemark.web.unsafe-method-reads=replica")) {
      assertThat(editsLost(onReplicas)).as("the first user's edit, written over").isEqualTo(1);
    }
  }

  /** Whether the second user's save, on {@code by}, wrote over the first user's edit: 1 or 0. */
  private static int editsLost(ConfigurableApplicationContext by) {
    MySqlTopology topology = shops.topology();
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
                "SELECT CONCAT(status, ' ', customer) FROM `"
                    + shops.db()
                    + "`.orders WHERE id = "
                    + id);
    assertThat(row).endsWith(" bob");
    return row.equals("PAID bob") ? 0 : 1;
  }

  private static void post(ConfigurableApplicationContext app, String path) {
    http.post().uri(ShopHttp.url(app, path)).retrieve().toBodilessEntity();
  }
}
