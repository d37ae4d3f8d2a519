package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ExecutionRecord;
import io.tidemark.Reason;
import io.tidemark.topology.ExecutionHistory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * A page with two reads behind a replica that does not apply the client's write: with the starter's
 * defaults the page waits once, not once per read. Each read's own budget (3 s here) would let it
 * wait nearly that long.
 */
class PageReadsShareOneWaitIT {

  private static final AtomicLong ids = new AtomicLong(90_000);
  private static final RestClient http = RestClient.create();

  @RegisterExtension static final ShopInstances shops = new ShopInstances("pagewait");

  private static ConfigurableApplicationContext app;

  @BeforeAll
  static void start() {
    app = shops.startWeb();
  }

  @Test
  void theSecondReadOfAPageDoesNotWaitAgain() {
    long id = ids.incrementAndGet();
    shops.topology().replica().pauseApplier();
    try {
      String token = ShopHttp.create(app, id, "ada");
      ExecutionHistory history = app.getBean(ExecutionHistory.class);
      int before = history.recent().size();

      ResponseEntity<String> page =
          http.get()
              .uri(url("/orders/" + id + "/twice"))
              .header("Consistency-Token", token)
              .retrieve()
              .toEntity(String.class);

      assertThat(page.getBody()).contains("ada");
      List<ExecutionRecord> reads = history.recent();
      assertThat(reads).hasSize(before + 2);
      ExecutionRecord first = reads.get(1);
      ExecutionRecord second = reads.get(0);
      assertThat(first.reason()).as(first.toString()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(first.waited())
          .as("its own share of its 3 s budget: " + first)
          .isGreaterThan(Duration.ofMillis(2500))
          .isLessThan(Duration.ofMillis(3000));
      assertThat(second.reason()).as(second.toString()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(second.waited())
          .as("the second read's wait: " + second)
          .isLessThan(Duration.ofMillis(50));
    } finally {
      shops.topology().replica().resumeApplier();
    }
  }

  private static String url(String path) {
    return ShopHttp.url(app, path);
  }
}
