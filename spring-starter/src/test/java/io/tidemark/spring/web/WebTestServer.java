package io.tidemark.spring.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@link WebTestApplication} a test class registers as a static extension: started with its
 * properties before the class's tests, closed after them, and asked over HTTP.
 */
final class WebTestServer implements BeforeAllCallback, AfterAllCallback {

  private static final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String[] properties;
  private @Nullable ConfigurableApplicationContext app;

  WebTestServer(String... properties) {
    this.properties = properties;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    app = WebTestApplication.start(properties);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (app != null) {
      app.close();
    }
  }

  /** The started application's {@code http://localhost:port}. */
  String base() {
    if (app == null) {
      throw new IllegalStateException("not started");
    }
    return WebTestApplication.baseUrl(app);
  }

  /**
   * Sends a GET of {@code path} with {@code headers}, names and values in turn; a header whose
   * value is null is not sent.
   */
  HttpResponse<String> get(String path, @Nullable String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(10));
    for (int i = 0; i < headers.length; i += 2) {
      String name = headers[i];
      String value = headers[i + 1];
      if (name != null && value != null) {
        request.header(name, value);
      }
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
