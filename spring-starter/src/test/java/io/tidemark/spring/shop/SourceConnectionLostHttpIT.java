package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.FaultLink;
import io.tidemark.testkit.FaultLink.Direction;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Write requests whose connection to the source is lost, through a fault link: one whose commit
 * reached the source while its answer was lost hears that the outcome is unknown, with a token that
 * covers the write, and a read with that token on another instance finds the order the replica does
 * not have yet; one lost before its transaction committed hears that the source failed. Neither is
 * answered as done.
 */
@ExtendWith(TestkitExtension.class)
class SourceConnectionLostHttpIT {

  private static final String LINK = "source-connection-lost-http";

  private static MySqlTopology topology;
  private static MySqlNode source;
  private static String db;
  private static ConfigurableApplicationContext writer;
  private static ConfigurableApplicationContext reader;
  private static final RestClient http = RestClient.create();

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    source = topology.source();
    db = ShopApplication.database(topology, "connection_lost");
    // The insert of a slow customer's order runs a second on the server: time enough to lose
    // its answer once the server has it, without losing those of the round trips before it.
    ShopApplication.slowInsertsOfCustomerSlow(topology, db, 1);
    // Local session state: the driver would otherwise ask the server whether the session is
    // read-only before the write, and with that answer lost never send the write.
    writer =
        ShopApplication.startWeb(
            topology,
            db,
            "spring.datasource.url="
                + source.jdbcUrlThrough(LINK, db)
                + "&useLocalSessionState=true");
    reader = ShopApplication.startWeb(topology, db);
  }

  @AfterAll
  static void stop() {
    writer.close();
    reader.close();
    source.link(LINK).close();
  }

  @Test
  void aCommitNeverConfirmedIsAnsweredAsUnknownWithATokenThatFindsTheWrite() throws Exception {
    long id = System.nanoTime();
    FaultLink link = source.link(LINK);
    topology.replica().pauseApplier();
    try {
      CompletableFuture<ResponseEntity<String>> answer =
          CompletableFuture.supplyAsync(
              () -> ShopHttp.post(writer, "/orders/" + id + "?customer=slow"));
      ShopApplication.awaitOnSource(
          topology,
          "SELECT COUNT(*) FROM information_schema.processlist WHERE state = 'User sleep'");
      link.drop(Direction.DOWNSTREAM);
      ShopApplication.awaitOnSource(
          topology, "SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id);
      link.resetConnections();
      link.heal();
      ResponseEntity<String> write = answer.get(30, TimeUnit.SECONDS);

      assertThat(write.getStatusCode().value()).isEqualTo(500);
      assertThat(write.getBody())
          .contains("\"type\":\"urn:tidemark:problem:commit-outcome-unknown\"")
          .contains("\"reason\":\"COMMIT_OUTCOME_UNKNOWN\"");
      String token = write.getHeaders().getFirst("Consistency-Token");
      assertThat(token).as("the answer carries a token").isNotBlank();

      assertThat(status(reader, id, null)).as("the replica does not have it").isEqualTo(404);
      assertThat(status(reader, id, token)).as("the token finds it").isEqualTo(200);
    } finally {
      link.heal();
      topology.replica().resumeApplier();
    }
  }

  @Test
  void aTransactionWhoseConnectionWasLostBeforeItBeganIsA503NotA200() {
    long id = System.nanoTime();
    FaultLink link = source.link(LINK);
    assertThat(post("/orders/" + (id - 1) + "?customer=ada").getStatusCode().value())
        .isEqualTo(201);
    // The pooled connection that write used is reset; taken again at once, it is not checked.
    link.resetConnections();

    ResponseEntity<String> write = post("/orders/" + id + "/transactional?customer=ada");

    // Spring MVC takes a database connection reset by its peer for an HTTP client that went
    // away, and answers 200 with no body: a write that did not happen would read as done.
    assertThat(write.getStatusCode().value()).as(write.toString()).isEqualTo(503);
    assertThat(write.getBody())
        .contains("\"type\":\"urn:tidemark:problem:source-error\"")
        .contains("\"reason\":\"SOURCE_ERROR\"");
    assertThat(write.getHeaders().getFirst("Retry-After")).isNotBlank();
    assertThat(source.queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id))
        .isEqualTo("0");
  }

  @Test
  void aTransactionWhoseConnectionIsLostMidwayIsA503NotA500() throws Exception {
    long id = System.nanoTime();
    FaultLink link = source.link(LINK);
    // After an earlier test reset the link, its pooled connections fail once each and the view
    // probes the source again: the writes go on once both are done.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (long warmUp = id - 1;
        post("/orders/" + warmUp + "?customer=ada").getStatusCode().value() != 201;
        warmUp--) {
      assertThat(System.nanoTime()).as("a write succeeds again").isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
    }
    CompletableFuture<ResponseEntity<String>> answer =
        CompletableFuture.supplyAsync(() -> post("/orders/" + id + "/transactional?customer=slow"));
    ShopApplication.awaitOnSource(
        topology, "SELECT COUNT(*) FROM information_schema.processlist WHERE state = 'User sleep'");
    // The insert runs on the server, its transaction open: the connection goes now.
    link.resetConnections();

    ResponseEntity<String> write = answer.get(30, TimeUnit.SECONDS);

    // The pool has closed the connection by the time the transaction manager rolls back: that
    // rollback's failure must not hide the failure that lost the connection.
    assertThat(write.getStatusCode().value()).as(write.toString()).isEqualTo(503);
    assertThat(write.getBody()).contains("\"reason\":\"SOURCE_ERROR\"");
    assertThat(write.getHeaders().getFirst("Retry-After")).isNotBlank();
    ShopApplication.awaitOnSource(
        topology,
        "SELECT COUNT(*) = 0 FROM information_schema.processlist WHERE state = 'User sleep'");
    assertThat(source.queryString("SELECT COUNT(*) FROM `" + db + "`.orders WHERE id = " + id))
        .as("rolled back by the server")
        .isEqualTo("0");
  }

  @Test
  void aWriteTheSourceRefusesAsReadOnlyIsA503NotA500() {
    // The view probes once at start: a source turned read-only after that, as one fenced before a
    // failover, still gets the writes until a refusal makes the view look again.
    ConfigurableApplicationContext instance =
        ShopApplication.startWeb(topology, db, "tidemark.topology.refresh-interval=1h");
    long id = System.nanoTime();
    try {
      assertThat(ShopHttp.post(instance, "/orders/" + id + "?customer=ada").getStatusCode().value())
          .isEqualTo(201);
      source.execute("SET GLOBAL super_read_only = ON");

      ResponseEntity<String> write =
          ShopHttp.post(instance, "/orders/" + (id + 1) + "/transactional?customer=ada");

      assertThat(write.getStatusCode().value()).as(write.toString()).isEqualTo(503);
      assertThat(write.getBody())
          .contains("\"type\":\"urn:tidemark:problem:no-writable-source\"")
          .contains("\"reason\":\"NO_WRITABLE_SOURCE\"");
      assertThat(write.getHeaders().getFirst("Retry-After")).isNotBlank();
    } finally {
      source.execute("SET GLOBAL super_read_only = OFF", "SET GLOBAL read_only = OFF");
      instance.close();
    }
  }

  private static ResponseEntity<String> post(String path) {
    return ShopHttp.post(writer, path);
  }

  private static int status(ConfigurableApplicationContext instance, long id, String token) {
    return http.get()
        .uri(ShopHttp.url(instance, "/orders/" + id))
        .headers(
            h -> {
              if (token != null) {
                h.set("Consistency-Token", token);
              }
            })
        .exchange((request, response) -> response.getStatusCode().value());
  }
}
