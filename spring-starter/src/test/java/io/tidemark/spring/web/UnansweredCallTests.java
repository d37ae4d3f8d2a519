package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.B;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.tidemark.ConsistencyContext;
import io.tidemark.spring.autoconfigure.TestConfigurations;
import io.tidemark.spring.autoconfigure.TestTokens;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * A call that may have written downstream and whose outcome the caller cannot know leaves the
 * caller's context dirty, through every client Boot builds: against a server that closes the
 * connection without answering, one that answers with a status it is told, and a port nobody
 * listens on.
 */
class UnansweredCallTests {

  private static final String NAME = "Consistency-Token";

  /** Reads each request's head, then closes the connection, or holds it while {@link #hold}. */
  private static ServerSocket silent;

  private static final List<Socket> held = new CopyOnWriteArrayList<>();
  private static volatile boolean hold;

  private static HttpServer answering;
  private static final AtomicInteger status = new AtomicInteger();
  private static final AtomicReference<@Nullable String> answer = new AtomicReference<>();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withPropertyValues("tidemark.token.secret=" + TestTokens.SECRET)
          .withUserConfiguration(TestConfigurations.Codec.class)
          .withConfiguration(
              AutoConfigurations.of(
                  HttpMessageConvertersAutoConfiguration.class,
                  RestClientAutoConfiguration.class,
                  RestTemplateAutoConfiguration.class,
                  WebClientAutoConfiguration.class,
                  TidemarkClientAutoConfiguration.class));

  @BeforeAll
  static void startServers() throws IOException {
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor =
        new Thread(
            () -> {
              while (!silent.isClosed()) {
                try {
                  Socket socket = silent.accept();
                  readHead(socket.getInputStream());
                  if (hold) {
                    held.add(socket);
                  } else {
                    socket.close();
                  }
                } catch (IOException e) {
                  // closed at the end, or a client that went away
                }
              }
            },
            "silent-server");
    acceptor.setDaemon(true);
    acceptor.start();

    answering = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    answering.createContext(
        "/",
        exchange -> {
          String value = answer.get();
          if (value != null) {
            exchange.getResponseHeaders().set(NAME, value);
          }
          byte[] body = "failed".getBytes(StandardCharsets.US_ASCII);
          exchange.sendResponseHeaders(status.get(), body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    answering.start();
  }

  @AfterAll
  static void stopServers() throws IOException {
    silent.close();
    releaseHeld();
    answering.stop(0);
  }

  @BeforeEach
  void reset() throws IOException {
    hold = false;
    releaseHeld();
    status.set(500);
    answer.set(null);
  }

  enum Client {
    REST_CLIENT(ResourceAccessException.class, HttpServerErrorException.class) {
      @Override
      String call(ApplicationContext context, String method, String url) {
        return context
            .getBean(org.springframework.web.client.RestClient.Builder.class)
            .build()
            .method(HttpMethod.valueOf(method))
            .uri(url)
            .retrieve()
            .body(String.class);
      }
    },
    REST_TEMPLATE(ResourceAccessException.class, HttpServerErrorException.class) {
      @Override
      String call(ApplicationContext context, String method, String url) {
        return context
            .getBean(RestTemplateBuilder.class)
            .build()
            .exchange(url, HttpMethod.valueOf(method), null, String.class)
            .getBody();
      }
    },
    WEB_CLIENT(WebClientRequestException.class, WebClientResponseException.class) {
      @Override
      String call(ApplicationContext context, String method, String url) {
        return context
            .getBean(WebClient.Builder.class)
            .build()
            .method(HttpMethod.valueOf(method))
            .uri(url)
            .retrieve()
            .bodyToMono(String.class)
            .block();
      }
    };

    final Class<? extends Exception> unanswered;
    final Class<? extends Exception> serverError;

    Client(Class<? extends Exception> unanswered, Class<? extends Exception> serverError) {
      this.unanswered = unanswered;
      this.serverError = serverError;
    }

    abstract String call(ApplicationContext context, String method, String url);
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aPostWithoutAnAnswerMarksTheContextDirtyAndFailsAsBefore(Client client) {
    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            assertThatThrownBy(() -> client.call(context, "POST", silentUrl() + "/pay/7?card=4242"))
                .isInstanceOf(client.unanswered);

            assertThat(binding.context().dirtyBecause())
                .startsWith("POST to 127.0.0.1:" + silent.getLocalPort() + " got no answer (")
                .doesNotContain("/pay")
                .doesNotContain("4242");
            assertThat(binding.context().gtids()).isEqualTo(gtids(A + ":1"));
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aGetWithoutAnAnswerLeavesTheContextClean(Client client) {
    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            assertThatThrownBy(() -> client.call(context, "GET", silentUrl() + "/orders/7"))
                .isInstanceOf(client.unanswered);

            assertThat(binding.context().isDirty()).isFalse();
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aPostThatNeverConnectedLeavesTheContextClean(Client client) throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closed + "/pay/7";

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            assertThatThrownBy(() -> client.call(context, "POST", url))
                .isInstanceOf(client.unanswered);

            assertThat(binding.context().isDirty()).isFalse();
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aPutAnswered504WithoutATokenMarksTheContextDirty(Client client) {
    status.set(504);

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            assertThatThrownBy(() -> client.call(context, "PUT", answeringUrl()))
                .isInstanceOf(client.serverError);

            assertThat(binding.context().dirtyBecause())
                .isEqualTo(
                    "PUT to 127.0.0.1:"
                        + answering.getAddress().getPort()
                        + " was answered 504 without a token: it may have written there");
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aPostAnswered500WithATokenMergesItAndLeavesTheContextClean(Client client) {
    answer.set(header("default", B + ":7"));

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            assertThatThrownBy(() -> client.call(context, "POST", answeringUrl()))
                .isInstanceOf(client.serverError);

            assertThat(binding.context().isDirty()).isFalse();
            assertThat(binding.context().gtids()).isEqualTo(gtids(A + ":1," + B + ":7"));
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aGetAnswered503WithoutATokenLeavesTheContextClean(Client client) {
    status.set(503);

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            assertThatThrownBy(() -> client.call(context, "GET", answeringUrl()))
                .isInstanceOf(client.serverError);

            assertThat(binding.context().isDirty()).isFalse();
          }
        });
  }

  @Test
  void aWebClientPostCancelledByATimeoutBeforeItsAnswerMarksTheContextDirty() {
    hold = true;

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            assertThatThrownBy(
                    () ->
                        context
                            .getBean(WebClient.Builder.class)
                            .build()
                            .post()
                            .uri(silentUrl() + "/pay/7")
                            .retrieve()
                            .bodyToMono(String.class)
                            .timeout(Duration.ofMillis(200))
                            .block())
                .hasCauseInstanceOf(TimeoutException.class);

            assertThat(binding.context().dirtyBecause())
                .isEqualTo(
                    "POST to 127.0.0.1:"
                        + silent.getLocalPort()
                        + " got no answer (CancellationException): it may have written there");
          }
        });
  }

  @Test
  void aWebClientPostAnsweredInTimeLeavesTheContextClean() {
    status.set(200);
    answer.set(header("default", B + ":7"));

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            String body =
                context
                    .getBean(WebClient.Builder.class)
                    .build()
                    .post()
                    .uri(answeringUrl())
                    .retrieve()
                    .bodyToMono(String.class)
                    .timeout(Duration.ofSeconds(10))
                    .block();

            assertThat(body).isEqualTo("failed");
            assertThat(binding.context().isDirty()).isFalse();
          }
        });
  }

  private static void readHead(InputStream in) throws IOException {
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    int b;
    while (matched < end.length && (b = in.read()) != -1) {
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
  }

  private static void releaseHeld() throws IOException {
    for (Socket socket : held) {
      socket.close();
    }
    held.clear();
  }

  private static String silentUrl() {
    return "http://127.0.0.1:" + silent.getLocalPort();
  }

  private static String answeringUrl() {
    return "http://127.0.0.1:" + answering.getAddress().getPort() + "/pay/7";
  }
}
