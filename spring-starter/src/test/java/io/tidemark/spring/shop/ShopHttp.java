package io.tidemark.spring.shop;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/** A client of the shop's web instances. */
final class ShopHttp {

  private static final RestClient http = RestClient.create();

  private ShopHttp() {}

  /** {@code path} on {@code instance}'s port. */
  static String url(ConfigurableApplicationContext instance, String path) {
    int port = ((WebServerApplicationContext) instance).getWebServer().getPort();
    return "http://127.0.0.1:" + port + path;
  }

  /**
   * Creates order {@code id} of {@code customer} on {@code instance}; returns its answer's token.
   */
  static String create(ConfigurableApplicationContext instance, long id, String customer) {
    return http.post()
        .uri(url(instance, "/orders/" + id + "?customer=" + customer))
        .retrieve()
        .toBodilessEntity()
        .getHeaders()
        .getFirst("Consistency-Token");
  }

  /** Posts to {@code path}; the answer whatever its status, as a problem's body is asserted on. */
  static ResponseEntity<String> post(ConfigurableApplicationContext instance, String path) {
    return http.post()
        .uri(url(instance, path))
        .exchange(
            (request, response) ->
                ResponseEntity.status(response.getStatusCode())
                    .headers(response.getHeaders())
                    .body(String.valueOf(response.bodyTo(String.class))));
  }
}
