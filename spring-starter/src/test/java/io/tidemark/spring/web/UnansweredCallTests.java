package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.B;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.tidemark.ConsistencyContext;
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
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
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

  private final ApplicationContextRunner runner = BootClients.runner();

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
        return BootClients.webClient(context)
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
    callFails(
        client,
        "POST",
        silentUrl() + "/pay/7?card=4242",
        client.unanswered,
        bound -> {
          assertThat(bound.dirtyBecause())
              .startsWith("POST to 127.0.0.1:" + silent.getLocalPort() + " got no answer (")
              .doesNotContain("/pay")
              .doesNotContain("4242");
          assertThat(bound.gtids()).isEqualTo(gtids(A + ":1"));
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aGetWithoutAnAnswerLeavesTheContextClean(Client client) {
    callFails(
        client,
        "GET",
        silentUrl() + "/orders/7",
        client.unanswered,
        bound -> assertThat(bound.isDirty()).isFalse());
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aPostThatNeverConnectedLeavesTheContextClean(Client client) throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closed + "/pay/7";

    callFails(
        client, "POST", url, client.unanswered, bound -> assertThat(bound.isDirty()).isFalse());
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aPutAnswered504WithoutATokenMarksTheContextDirty(Client client) {
    status.set(504);

    callFails(
        client,
        "PUT",
        answeringUrl(),
        client.serverError,
        bound -> {
          assertThat(bound.dirtyBecause())
              .isEqualTo(
                  "PUT to 127.0.0.1:"
                      + answering.getAddress().getPort()
                      + " was answered 504 without a token: it may have written there");
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aPostAnswered500WithATokenMergesItAndLeavesTheContextClean(Client client) {
    answer.set(header("default", B + ":7"));

    callFails(
        client,
        "POST",
        answeringUrl(),
        client.serverError,
        bound -> {
          assertThat(bound.isDirty()).isFalse();
          assertThat(bound.gtids()).isEqualTo(gtids(A + ":1," + B + ":7"));
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void aGetAnswered503WithoutATokenLeavesTheContextClean(Client client) {
    status.set(503);

    callFails(
        client,
        "GET",
        answeringUrl(),
        client.serverError,
        bound -> assertThat(bound.isDirty()).isFalse());
  }

  @Test
  void aWebClientPostCancelledByATimeoutBeforeItsAnswerMarksTheContextDirty() {
    hold = true;

    inAnOpenContext(
        (context, bound) -> {
          assertThatThrownBy(
                  () ->
                      BootClients.webClient(context)
                          .post()
                          .uri(silentUrl() + "/pay/7")
                          .retrieve()
                          .bodyToMono(String.class)
                          .timeout(Duration.ofMillis(200))
                          .block())
              .hasCauseInstanceOf(TimeoutException.class);

          assertThat(bound.dirtyBecause())
              .isEqualTo(
                  "POST to 127.0.0.1:"
                      + silent.getLocalPort()
                      + " got no answer (CancellationException): it may have written there");
        });
  }

  @Test
  void aWebClientPostAnsweredInTimeLeavesTheContextClean() {
    status.set(200);
    answer.set(header("default", B + ":7"));

    inAnOpenContext(
        (context, bound) -> {
          String body =
              BootClients.webClient(context)
                  .post()
                  .uri(answeringUrl())
                  .retrieve()
                  .bodyToMono(String.class)
                  .timeout(Duration.ofSeconds(10))
                  .block();

          assertThat(body).isEqualTo("failed");
          assertThat(bound.isDirty()).isFalse();
        });
  }

  /**
   * Calls {@code url} with {@code client} in a consistency context opened at A:1, checks the call
   * fails with {@code thrown}, then checks the context with {@code check}.
   */
  private void callFails(
      Client client,
      String method,
      String url,
      Class<? extends Exception> thrown,
      ThrowingConsumer<ConsistencyContext> check) {
    inAnOpenContext(
        (context, bound) -> {
          assertThatThrownBy(() -> client.call(context, method, url)).isInstanceOf(thrown);

          check.accept(bound);
        });
  }

  /** Runs {@code test} with Boot's clients, in a consistency context opened at A:1. */
  private void inAnOpenContext(InAContext test) {
    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            test.run(context, binding.context());
          }
        });
  }

  /** A test of a call made in a consistency context. */
  @FunctionalInterface
  private interface InAContext {
    void run(ApplicationContext context, ConsistencyContext bound) throws Throwable;
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
