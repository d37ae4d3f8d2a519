package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * The demo's read endpoint through its shared Redis cache: an update that did not put into the
 * cache (another endpoint, or a put that was lost) leaves the older revision there, and a read
 * carrying the update's token must not be answered with it.
 */
@ExtendWith(TestkitExtension.class)
class TokenAwareCacheIT {

  private static final String HEADER = "Consistency-Token";
  private static final RestClient http = RestClient.create();
  private static MySqlTopology topology;
  private static RedisServer redis;
  private static Demo demo;

  @BeforeAll
  static void start(MySqlTopology shared) {
    topology = shared;
    redis = RedisServer.start();
    demo = Demo.start(topology, redis, 0);
  }

  @AfterAll
  static void stop() {
    demo.close();
    redis.close();
  }

  @Test
  void aCachedOlderRevisionIsNotServedToARequestWhoseTokenHoldsTheUpdate() {
    ResponseEntity<Order> created =
        http.post()
            .uri(demo.firstUrl() + "/api/orders?customer=ines")
            .retrieve()
            .toEntity(Order.class);
    long id = created.getBody().id();
    ResponseEntity<ReadReply> cachedRead = read(id, created.getHeaders().getFirst(HEADER));
    assertThat(cachedRead.getBody().order().status()).isEqualTo("NEW");

    // An update through the customer's endpoint, which does not put into the cache: the cache
    // keeps revision 1, as it does when an update's put is lost.
    ResponseEntity<Order> updated =
        http.put()
            .uri(demo.firstUrl() + "/api/customers/ines/orders/" + id + "/status?status=PAID")
            .retrieve()
            .toEntity(Order.class);
    String token = updated.getHeaders().getFirst(HEADER);
    assertThat(token).isNotNull();

    ResponseEntity<ReadReply> read = read(id, token);

    assertThat(read.getBody().order().status()).as(read.getBody().toString()).isEqualTo("PAID");
    assertThat(read.getBody().order().revision()).isEqualTo(2);
    assertThat(read(id, token).getBody().servedBy().reason())
        .as("the fresher revision was cached with the update's token")
        .isEqualTo("CACHE_HIT");
  }

  private static ResponseEntity<ReadReply> read(long id, String token) {
    return http.get()
        .uri(demo.secondUrl() + "/api/orders/" + id)
        .header(HEADER, token)
        .retrieve()
        .toEntity(ReadReply.class);
  }
}
