package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.mysql.MySqlNode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Writes under {@code tidemark.web.request-timeout} end by the request's deadline, as its reads do:
 * one the source is still running, and one waiting for the pool's only connection, are answered
 * with a typed 503 then, not when the server or the pool lets go; a write cut while it committed is
 * answered as of unknown outcome, with a token that finds it once it is there.
 */
class WriteDeadlineHttpIT {

  private static final Duration DEADLINE = Duration.ofSeconds(1);

  /** HTTP, the statement floor and the thread hand-over of a loaded 2-core machine. */
  private static final Duration SLACK = Duration.ofMillis(400);

  @RegisterExtension static final ShopInstances shops = new ShopInstances("write_deadline");

  private static MySqlNode source;
  private static String db;
  private static ConfigurableApplicationContext instance;
  private static final RestClient http = RestClient.create();

  @BeforeAll
  static void start() {
    source = shops.topology().source();
    db = shops.db();
    // A slow customer's insert runs four seconds on the server, far past the request's deadline.
    ShopApplication.slowInsertsOfCustomerSlow(shops.topology(), db, 4);
    instance =
        shops.startWeb(
            "tidemark.web.request-timeout=" + DEADLINE.toMillis() + "ms",
            "spring.datasource.hikari.maximum-pool-size=1");
    // The first request also starts Spring MVC's servlet, before the request's deadline begins.
    assertThat(
            post("/orders/" + System.nanoTime() + "?customer=ada").answer().getStatusCode().value())
        .isEqualTo(201);
  }

  @Test
  void aWriteTheServerStillRunsAtTheDeadlineIsA503Then() {
    long id = System.nanoTime();

    Timed write = post("/orders/" + id + "/transactional?customer=slow");

    assertRefusedInTime(write);
    ShopApplication.awaitOnSource(
        shops.topology(),
        "SELECT COUNT(*) = 0 FROM information_schema.processlist WHERE state = 'User sleep'");
    assertThat(source.queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id))
        .as("rolled back by the server")
        .isEqualTo("0");
  }

  @Test
  void aWriteWaitingForAConnectionOfTheSourceIsA503AtTheDeadline() throws Exception {
    long id = System.nanoTime();
    // Outside any request, so with no deadline: it holds the pool's only connection for 4 s.
    ShopApplication.Writes writes = instance.getBean(ShopApplication.Writes.class);
    CompletableFuture<Void> holder =
        CompletableFuture.runAsync(() -> writes.createInNewTransaction(id, "slow"));
    ShopApplication.awaitOnSource(
        shops.topology(),
        "SELECT COUNT(*) FROM information_schema.processlist WHERE state = 'User sleep'");

    Timed write = post("/orders/" + (id + 1) + "/transactional?customer=ada");

    assertRefusedInTime(write);
    holder.get(30, TimeUnit.SECONDS);
    assertThat(
            source.queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + (id + 1)))
        .as("the waiting write never ran")
        .isEqualTo("0");
  }

  private static void assertRefusedInTime(Timed write) {
    assertThat(write.took()).as(write.toString()).isLessThan(DEADLINE.plus(SLACK));
    assertThat(write.answer().getStatusCode().value()).as(write.toString()).isEqualTo(503);
    assertThat(write.answer().getBody())
        .contains("\"type\":\"urn:tidemark:problem:source-error\"")
        .contains("\"reason\":\"SOURCE_ERROR\"");
    assertThat(write.answer().getHeaders().getFirst("Retry-After")).isNotBlank();
  }

  @Test
  void aWriteCutWhileItCommitsIsOfUnknownOutcomeWithATokenThatFindsIt() {
    long id = System.nanoTime();

    // In autocommit the insert commits as it runs: cut at the deadline, its outcome is unknown.
    Timed write = post("/orders/" + id + "?customer=slow");

    assertThat(write.took()).as(write.toString()).isLessThan(DEADLINE.plus(SLACK));
    assertThat(write.answer().getStatusCode().value()).as(write.toString()).isEqualTo(500);
    assertThat(write.answer().getBody()).contains("\"reason\":\"COMMIT_OUTCOME_UNKNOWN\"");
    String token = write.answer().getHeaders().getFirst("Consistency-Token");
    assertThat(token).as("the answer carries a token").isNotBlank();
    ShopApplication.awaitOnSource(
        shops.topology(),
        "SELECT COUNT(*) = 0 FROM information_schema.processlist WHERE state = 'User sleep'");
    boolean committed =
        "1".equals(source.queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id));
    assertThat(status(id, token))
        .as("a read with the answer's token finds what the source has")
        .isEqualTo(committed ? 200 : 404);
  }

  /** An answer and how long it took from sending. */
  private record Timed(ResponseEntity<String> answer, Duration took) {}

  private static Timed post(String path) {
    long sent = System.nanoTime();
    ResponseEntity<String> answer = ShopHttp.post(instance, path);
    return new Timed(answer, Duration.ofNanos(System.nanoTime() - sent));
  }

  private static int status(long id, String token) {
    return http.get()
        .uri(ShopHttp.url(instance, "/orders/" + id))
        .header("Consistency-Token", token)
        .exchange((request, response) -> response.getStatusCode().value());
  }
}
