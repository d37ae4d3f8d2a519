package io.tidemark.spring.web;

import static io.tidemark.spring.autoconfigure.TestTokens.A;
import static io.tidemark.spring.autoconfigure.TestTokens.B;
import static io.tidemark.spring.autoconfigure.TestTokens.gtids;
import static io.tidemark.spring.autoconfigure.TestTokens.header;
import static io.tidemark.spring.autoconfigure.TestTokens.verified;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyContextAccessor;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.TokenCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.util.context.Context;

/**
 * The clients Boot builds send the current token and merge what the called service answers with,
 * against a real HTTP server that records what it received and answers what it is told.
 */
class TokenPropagationTests {

  private static final String NAME = "Consistency-Token";

  private static HttpServer server;
  private static final AtomicReference<@Nullable String> received = new AtomicReference<>();
  private static final AtomicReference<@Nullable String> answer = new AtomicReference<>();

  private final ApplicationContextRunner runner = BootClients.runner();

  @BeforeAll
  static void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          received.set(exchange.getRequestHeaders().getFirst(NAME));
          String value = answer.get();
          if (value != null) {
            exchange.getResponseHeaders().set(NAME, value);
          }
          byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  @AfterAll
  static void stopServer() {
    server.stop(0);
  }

  @BeforeEach
  void reset() {
    received.set(null);
    answer.set(null);
  }

  enum Client {
    REST_CLIENT {
      @Override
      String call(ApplicationContext context, String url, @Nullable String header) {
        RestClient.RequestHeadersSpec<?> request =
            context.getBean(RestClient.Builder.class).build().get().uri(url);
        if (header != null) {
          request.header(NAME, header);
        }
        return request.retrieve().body(String.class);
      }
    },
    REST_TEMPLATE {
      @Override
      String call(ApplicationContext context, String url, @Nullable String header) {
        RestTemplateBuilder builder = context.getBean(RestTemplateBuilder.class);
        if (header != null) {
          builder = builder.defaultHeader(NAME, header);
        }
        return builder.build().getForObject(url, String.class);
      }
    },
    WEB_CLIENT {
      @Override
      String call(ApplicationContext context, String url, @Nullable String header) {
        WebClient.RequestHeadersSpec<?> request = BootClients.webClient(context).get().uri(url);
        if (header != null) {
          request.header(NAME, header);
        }
        return request.retrieve().bodyToMono(String.class).block();
      }
    };

    abstract String call(ApplicationContext context, String url, @Nullable String header);
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void sendsTheContextsTokenAndMergesTheAnswer(Client client) {
    TokenCodec payments = TestTokens.codec(TestTokens.OTHER_SECRET);
    String sentPayments = header(payments, "payments", B + ":1");
    String answeredPayments = header(payments, "payments", B + ":1-2");
    answer.set(header("default", B + ":7") + ", " + answeredPayments);
    ConsistencyContext unitOfWork = ConsistencyContext.create(gtids(A + ":1-5"), null);
    unitOfWork.forward(Map.of("payments", tokens(sentPayments, "payments")), Map.of());

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = unitOfWork.attach()) {
            assertThat(client.call(context, url(), null)).isEqualTo("ok");

            assertThat(verified(received.get())).isEqualTo(gtids(A + ":1-5"));
            assertThat(TestTokens.codec().parseHeader(received.get()).tokens("payments"))
                .isEqualTo(tokens(sentPayments, "payments"));
            assertThat(binding.context().gtids()).isEqualTo(gtids(A + ":1-5," + B + ":7"));
            assertThat(binding.context().isDirty()).isFalse();
            assertThat(unitOfWork.forwardedTokens().get("payments"))
                .isEqualTo(tokens(answeredPayments, "payments"));
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void marksTheContextDirtyWhenTheAnswerDoesNotVerify(Client client) {
    answer.set(header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", B + ":7"));

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            client.call(context, url(), null);

            assertThat(binding.context().isDirty()).isTrue();
            assertThat(binding.context().gtids()).isEqualTo(gtids(A + ":1"));
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void sendsAndMergesNothingOutsideAContext(Client client) {
    answer.set(header("default", B + ":7"));

    runner.run(
        context -> {
          client.call(context, url(), null);

          assertThat(received.get()).isNull();
          assertThat(ConsistencyContext.currentOrNull()).isNull();
        });
  }

  @Test
  void aWebClientCallSendsAndMergesTheContextItsReactorContextHolds() {
    answer.set(header("default", B + ":7"));
    ConsistencyContext request = ConsistencyContext.create(gtids(A + ":1-5"), null);

    runner.run(
        context -> {
          String body =
              BootClients.webClient(context)
                  .get()
                  .uri(url())
                  .retrieve()
                  .bodyToMono(String.class)
                  .contextWrite(Context.of(ConsistencyContextAccessor.KEY, request))
                  .block();

          assertThat(body).isEqualTo("ok");
          assertThat(ConsistencyContext.currentOrNull()).isNull();
          assertThat(verified(received.get())).isEqualTo(gtids(A + ":1-5"));
          assertThat(request.gtids()).isEqualTo(gtids(A + ":1-5," + B + ":7"));
        });
  }

  @ParameterizedTest
  @EnumSource(Client.class)
  void leavesAHeaderTheCallerSetAlone(Client client) {
    String own = header("default", B + ":3");

    runner.run(
        context -> {
          try (ConsistencyContext.Binding binding = ConsistencyContext.open(gtids(A + ":1"))) {
            client.call(context, url(), own);

            assertThat(received.get()).isEqualTo(own);
          }
        });
  }

  private static List<String> tokens(String header, String cluster) {
    return TestTokens.codec().parseHeader(header).tokens(cluster);
  }

  private static String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/b";
  }
}
