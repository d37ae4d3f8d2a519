package io.tidemark.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.testkit.redis.RedisServer;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import io.tidemark.topology.ExecutionHistory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Every answer to a request with writes carries a token that covers them: after hundreds of
 * scattered writes (compacted with the source's set), after a write the context could not vouch for
 * (covered with the source's set), and when the source cannot be asked (a marker that sends the
 * client's next reads to the source, replaced by the next answer).
 */
class AnswerTokensIT {

  private static final String HEADER = "Consistency-Token";
  private static final AtomicLong ids = new AtomicLong(50_000);
  private static final RestClient http = RestClient.create();

  @RegisterExtension static final ShopInstances shops = new ShopInstances("answers").withRedis();

  private static RedisServer redis;
  private static ConfigurableApplicationContext first;
  private static ConfigurableApplicationContext second;

  @BeforeAll
  static void start() {
    redis = shops.redis();
    String[] settings = {
      "tidemark.scope.store=REDIS",
      "tidemark.scope.redis-uri=" + redis.uri(),
      "tidemark.token.cover-timeout=300ms",
      "shop.read-timeout=1s"
    };
    first = shops.startWeb(settings);
    second = shops.startWeb(settings);
  }

  @AfterEach
  void heal() {
    shops.topology().source().thaw();
    redis.thaw();
  }

  @Test
  void aLongSessionKeepsATokenThatCoversEveryWrite() {
    TokenCodec codec = first.getBean(TokenCodec.class);
    int limit = codec.config().maxHeaderLength();
    String token = null;
    int withoutToken = 0;
    int longest = 0;
    for (int i = 0; i < 300; i++) {
      // Another client's write between two of this client's: its GTIDs never touch.
      create(second, ids.incrementAndGet(), null);
      // This client sends each answer's header with its next request, and nothing else.
      token = create(first, ids.incrementAndGet(), token).getHeaders().getFirst(HEADER);
      if (token == null) {
        withoutToken++;
      } else {
        longest = Math.max(longest, token.length());
      }
    }
    shops.topology().replica().pauseApplier();
    long last = ids.incrementAndGet();
    token = create(first, last, token).getHeaders().getFirst(HEADER);

    assertThat(withoutToken).as("answers without a token, of 300").isZero();
    assertThat(longest).isLessThanOrEqualTo(limit);
    assertThat(token).isNotNull();
    ResponseEntity<String> read = get(second, "/orders/" + last, token);
    assertThat(read.getStatusCode().value()).as(read.toString()).isEqualTo(200);
    assertThat(read.getBody()).contains("\"id\":" + last);
  }

  @Test
  void aDirtyAnswerIsCoveredWithTheSourcesExecutedSet() {
    long id = ids.incrementAndGet();
    String written = create(first, id, null).getHeaders().getFirst(HEADER);
    GtidSet writes = gtids(written);

    redis.freeze();
    // The scope's token cannot be read, so the request reads from the source, dirty.
    ResponseEntity<String> read = get(second, "/customers/ada/orders/" + id, written);

    assertThat(read.getStatusCode().value()).as(read.toString()).isEqualTo(200);
    String answered = read.getHeaders().getFirst(HEADER);
    assertThat(answered).as("the dirty answer's token").isNotNull();
    ConsistencyToken token = verify(answered);
    assertThat(token.requiresSource()).isFalse();
    assertThat(token.gtids().containsAll(writes)).isTrue();
    assertThat(GtidSet.parse(shops.topology().source().gtidExecuted()).containsAll(token.gtids()))
        .isTrue();
  }

  @Test
  void withoutTheSourceTheAnswerIsAMarkerAndTheNextAnswerCoversAgain() {
    long id = ids.incrementAndGet();
    String written = create(first, id, null).getHeaders().getFirst(HEADER);

    redis.freeze();
    shops.topology().source().freeze();
    ResponseEntity<String> refused = get(second, "/customers/ada/orders/" + id, written);
    shops.topology().source().thaw();
    redis.thaw();

    assertThat(refused.getStatusCode().value()).as(refused.toString()).isEqualTo(503);
    String marker = refused.getHeaders().getFirst(HEADER);
    assertThat(marker).as("the answer without a source still has a token").isNotNull();
    assertThat(verify(marker).requiresSource()).isTrue();

    shops.topology().replica().pauseApplier();
    ResponseEntity<String> read = get(second, "/orders/" + id, marker);
    assertThat(read.getStatusCode().value()).as(read.toString()).isEqualTo(200);
    assertThat(second.getBean(ExecutionHistory.class).recent().get(0).reason())
        .isEqualTo(Reason.SOURCE_BY_POLICY);
    ConsistencyToken covered = verify(read.getHeaders().getFirst(HEADER));
    assertThat(covered.requiresSource()).isFalse();
    assertThat(covered.gtids().containsAll(gtids(written))).isTrue();
  }

  @Test
  void aCommittedWriteWhoseScopeRedisCannotTakeIsAnsweredAsCommittedAndSaysSo() {
    long id = ids.incrementAndGet();

    redis.freeze();
    ResponseEntity<String> created =
        http.post()
            .uri(ShopHttp.url(first, "/customers/kim/orders/" + id))
            .retrieve()
            .onStatus(status -> true, (request, response) -> {})
            .toEntity(String.class);
    redis.thaw();

    assertThat(created.getStatusCode().value()).as(created.toString()).isEqualTo(201);
    assertThat(created.getHeaders().getFirst("Consistency-Scope-Unrecorded"))
        .isEqualTo("customer:kim");
    String token = created.getHeaders().getFirst(HEADER);
    assertThat(token).as("the committed write's token").isNotNull();
    shops.topology().replica().pauseApplier();
    ResponseEntity<String> read = get(second, "/orders/" + id, token);
    assertThat(read.getStatusCode().value()).as(read.toString()).isEqualTo(200);
    assertThat(read.getBody()).contains("\"customer\":\"kim\"");
  }

  @Test
  void aReadByAClientThatNeverWroteCarriesWhatItObserved() {
    long id = ids.incrementAndGet();
    GtidSet written = gtids(create(first, id, null).getHeaders().getFirst(HEADER));
    shops.topology().awaitReplicasCaughtUp(Duration.ofSeconds(10));

    ResponseEntity<String> read =
        http.get()
            .uri(ShopHttp.url(second, "/orders/" + id))
            .retrieve()
            .onStatus(status -> true, (request, response) -> {})
            .toEntity(String.class);

    assertThat(read.getStatusCode().value()).as(read.toString()).isEqualTo(200);
    assertThat(second.getBean(ExecutionHistory.class).recent().get(0).reason())
        .isEqualTo(Reason.REPLICA_NO_TOKEN);
    String observed = read.getHeaders().getFirst(HEADER);
    assertThat(observed).as("the answer carries what the read saw").isNotNull();
    assertThat(verify(observed).gtids().containsAll(written)).isTrue();
  }

  private static ConsistencyToken verify(String header) {
    TokenCodec codec = first.getBean(TokenCodec.class);
    return codec.verify(codec.parseHeader(header), "shop").orElseThrow();
  }

  private static GtidSet gtids(String header) {
    return verify(header).gtids();
  }

  private static ResponseEntity<Void> create(
      ConfigurableApplicationContext app, long id, @Nullable String token) {
    return http.post()
        .uri(ShopHttp.url(app, "/orders/" + id + "?customer=ada"))
        .headers(
            h -> {
              if (token != null) {
                h.set(HEADER, token);
              }
            })
        .retrieve()
        .toBodilessEntity();
  }

  private static ResponseEntity<String> get(
      ConfigurableApplicationContext app, String path, String token) {
    return http.get()
        .uri(ShopHttp.url(app, path))
        .header(HEADER, token)
        .retrieve()
        .onStatus(status -> true, (request, response) -> {})
        .toEntity(String.class);
  }
}
