package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.spring.Replication;
import io.tidemark.token.TokenCodec;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import reactor.core.publisher.Hooks;

/**
 * Two instances of the shop as WebFlux servers on Netty, sharing nothing but the {@code
 * Consistency-Token} header the client carries from the write's response to the read's request; the
 * read is a blocking {@code @ReadYourWrites} JDBC method a handler runs on {@code
 * Schedulers.boundedElastic()}. On MySQL and on PostgreSQL, with the same assertions.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Replication.Database.class)
class ShopWebFluxIT {

  // Declares the class's one argument, which the start of each invocation takes.
  @Parameter Replication.Database database;

  private static final String NAME = "Consistency-Token";
  private static final AtomicLong ids = new AtomicLong(5_000);
  private static Replication replication;
  private static ConfigurableApplicationContext first;
  private static ConfigurableApplicationContext second;
  private static final RestClient http = RestClient.create();

  @BeforeParameterizedClassInvocation
  static void start(Replication.Database database) {
    replication = database.start("shopflux", ShopApplication.ORDERS);
    first = ShopApplication.startReactive(replication);
    second = ShopApplication.startReactive(replication);
  }

  @AfterParameterizedClassInvocation
  static void stop() {
    try (Replication started = replication) {
      first.close();
      second.close();
    } finally {
      // Boot turned it on for the whole JVM when the instances started.
      Hooks.disableAutomaticContextPropagation();
    }
  }

  @AfterEach
  void resumeReplica() {
    replication.resumeReplica();
  }

  @Test
  void aBlockingReadOnBoundedElasticWithTheWritesHeaderWaitsForTheHeldBackReplica() {
    long id = ids.incrementAndGet();
    replication.pauseReplica();
    ResponseEntity<Void> created =
        http.post()
            .uri(url(first, "/reactive/orders/" + id + "?customer=ada"))
            .retrieve()
            .toBodilessEntity();
    String token = created.getHeaders().getFirst(NAME);
    assertThat(token).as("the write's response carries its token").isNotBlank();
    assertThat(read(id, null).getStatusCode().value())
        .as("the held-back replica without the token is stale")
        .isEqualTo(404);

    CompletableFuture<Void> resume = replication.resumeReplicaAfter(Duration.ofMillis(300));
    ResponseEntity<String> read = read(id, token);
    resume.join();

    assertThat(read.getStatusCode().value()).isEqualTo(200);
    assertThat(read.getBody()).contains("\"customer\":\"ada\"");
    String answered = read.getHeaders().getFirst(NAME);
    assertThat(answered).as("the read's response carries a token").isNotBlank();
    assertThat(gtids(token)).isNotEqualTo(GtidSet.EMPTY);
    assertThat(gtids(answered).containsAll(gtids(token)))
        .as("the read's token %s still requires the write's %s", answered, token)
        .isTrue();
  }

  private static ResponseEntity<String> read(long id, String token) {
    RestClient.RequestHeadersSpec<?> request =
        http.get().uri(url(second, "/reactive/orders/" + id));
    if (token != null) {
      request.header(NAME, token);
    }
    return request.retrieve().onStatus(status -> true, (req, res) -> {}).toEntity(String.class);
  }

  private static GtidSet gtids(String header) {
    TokenCodec codec = second.getBean(TokenCodec.class);
    return codec.verify(codec.parseHeader(header), "shop").orElseThrow().gtids();
  }

  private static String url(ConfigurableApplicationContext context, String path) {
    int port = ((WebServerApplicationContext) context).getWebServer().getPort();
    return "http://127.0.0.1:" + port + path;
  }
}
