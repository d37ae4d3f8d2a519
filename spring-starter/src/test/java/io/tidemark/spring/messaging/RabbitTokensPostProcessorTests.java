package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.impl.LongStringHelper;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.TokenExchange;
import io.tidemark.token.TokenRejectedException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.amqp.core.BatchMessageListener;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.config.RetryInterceptorBuilder;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.amqp.rabbit.support.ListenerExecutionFailedException;

class RabbitTokensPostProcessorTests {

  private static final String HEADER = "Consistency-Token";

  private final List<String> rejected = new ArrayList<>();
  private final TokenExchange exchange =
      new TokenExchange(
          TestTokens.codec(),
          "default",
          HEADER,
          Duration.ofMillis(200),
          timeout -> {
            throw new SQLException("no source in these tests");
          });
  private final MessageTokens tokens =
      new MessageTokens(
          exchange,
          new TidemarkMessagingProperties(),
          (technology, reason) -> rejected.add(technology + ":" + reason));
  private final RabbitTokensPostProcessor processor = new RabbitTokensPostProcessor(() -> tokens);

  @AfterEach
  void nothingStaysBound() {
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void aTemplateSendsTheThreadsTokenInPlaceOfAnyOtherAndKeepsTheUsersPostProcessorsOnce() {
    RabbitTemplate template = new RabbitTemplate();
    template.addBeforePublishPostProcessors(
        message -> {
          message.getMessageProperties().setHeader("X-Tenant", "north");
          message.getMessageProperties().setHeader(HEADER, "stale");
          return message;
        });
    processor.postProcessAfterInitialization(template, "rabbitTemplate");
    processor.postProcessAfterInitialization(template, "rabbitTemplate");

    Map<String, Object> headers;
    try (ConsistencyContext.Binding bound =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1-7"))) {
      headers = published(template);
    }

    assertThat(headers).containsEntry("X-Tenant", "north");
    assertThat(gtidsOf(headers.get(HEADER))).isEqualTo(GtidSet.parse(TestTokens.A + ":1-7"));
    assertThat(template.getBeforePublishPostProcessors()).hasSize(2);
  }

  @Test
  void aTemplateAddsNothingWhereNoContextIsBound() {
    RabbitTemplate template = new RabbitTemplate();
    processor.postProcessAfterInitialization(template, "rabbitTemplate");

    assertThat(published(template)).doesNotContainKey(HEADER);
  }

  @Test
  void theListenerAdviceGoesAheadOfTheFactorysOwnAndOnlyOnce() {
    SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
    MethodInterceptor retry = invocation -> invocation.proceed();
    factory.setAdviceChain(retry);

    processor.postProcessAfterInitialization(factory, "rabbitListenerContainerFactory");
    processor.postProcessAfterInitialization(factory, "rabbitListenerContainerFactory");

    Advice[] chain = factory.getAdviceChain();
    assertThat(chain).hasSize(2);
    assertThat(chain[0]).isInstanceOf(RabbitListenerTokens.class);
    assertThat(chain[1]).isSameAs(retry);
  }

  @Test
  void aFactoryWithoutAdviceGetsOurs() {
    SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
    processor.postProcessAfterInitialization(factory, "rabbitListenerContainerFactory");
    assertThat(factory.getAdviceChain()).singleElement().isInstanceOf(RabbitListenerTokens.class);
  }

  @Test
  void aListenerRunsInItsMessagesTokenAndTheBindingEnds() {
    List<@Nullable GtidSet> seen = new ArrayList<>();
    Container container =
        container(message -> seen.add(ConsistencyContext.current().gtids()), factory());

    container.deliver(message(token(TestTokens.A + ":1-5")));
    container.deliver(message(null));

    assertThat(seen).containsExactly(GtidSet.parse(TestTokens.A + ":1-5"), GtidSet.EMPTY);
  }

  @Test
  void aBatchListenerRunsInTheUnionOfItsMessagesTokens() {
    List<GtidSet> seen = new ArrayList<>();
    BatchMessageListener batch = messages -> seen.add(ConsistencyContext.current().gtids());
    Container container = container(batch, factory());
    Message longString = message(null);
    longString
        .getMessageProperties()
        .setHeader(HEADER, LongStringHelper.asLongString(token(TestTokens.B + ":1-2")));

    container.deliver(List.of(message(token(TestTokens.A + ":1-3")), message(null), longString));

    assertThat(seen).containsExactly(GtidSet.parse(TestTokens.A + ":1-3," + TestTokens.B + ":1-2"));
  }

  @Test
  void aThrowingListenerLeavesNoContextBound() {
    Container container =
        container(
            message -> {
              throw new IllegalStateException("listener failed");
            },
            factory());

    assertThatThrownBy(() -> container.deliver(message(token(TestTokens.A + ":1"))))
        .isInstanceOf(ListenerExecutionFailedException.class);
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void everyAttemptOfBootsRetryAdviceAndItsRecovererRunInTheMessagesContext() {
    List<@Nullable GtidSet> recovered = new ArrayList<>();
    SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
    factory.setAdviceChain(
        RetryInterceptorBuilder.stateless()
            .maxRetries(2)
            .backOffOptions(1, 1.0, 1)
            .recoverer((message, cause) -> recovered.add(boundGtids()))
            .build());
    processor.postProcessAfterInitialization(factory, "rabbitListenerContainerFactory");
    List<@Nullable GtidSet> attempts = new ArrayList<>();
    Container container =
        container(
            message -> {
              attempts.add(boundGtids());
              throw new IllegalStateException("attempt " + attempts.size() + " fails");
            },
            factory);

    container.deliver(message(token(TestTokens.A + ":1-4")));

    assertThat(attempts).hasSize(3).containsOnly(GtidSet.parse(TestTokens.A + ":1-4"));
    assertThat(recovered).containsExactly(GtidSet.parse(TestTokens.A + ":1-4"));
  }

  private static @Nullable GtidSet boundGtids() {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    return context == null ? null : context.gtids();
  }

  @Test
  void aTokenThatDoesNotVerifySendsTheListenersReadsToTheSourceAndCounts() {
    List<Boolean> dirty = new ArrayList<>();
    Container container =
        container(message -> dirty.add(ConsistencyContext.current().isDirty()), factory());
    String signedElsewhere;
    TokenExchange elsewhere =
        new TokenExchange(
            TestTokens.codec(TestTokens.OTHER_SECRET),
            "default",
            HEADER,
            Duration.ofMillis(200),
            timeout -> GtidSet.EMPTY);
    try (ConsistencyContext.Binding bound =
        ConsistencyContext.open(GtidSet.parse(TestTokens.A + ":1"))) {
      signedElsewhere = elsewhere.headerFor(bound.context());
    }

    container.deliver(message(signedElsewhere));
    container.deliver(message("not a token"));

    assertThat(dirty).containsExactly(true, true);
    assertThat(rejected)
        .containsExactly(
            "rabbit:" + TokenRejectedException.Check.BAD_SIGNATURE,
            "rabbit:" + TokenRejectedException.Check.MALFORMED);
  }

  @Test
  void headerValuesAreReadAsTextWhateverTheirType() {
    assertThat(RabbitListenerTokens.text(null)).isNull();
    assertThat(RabbitListenerTokens.text("a=b")).isEqualTo("a=b");
    assertThat(RabbitListenerTokens.text("a=b".getBytes(StandardCharsets.UTF_8))).isEqualTo("a=b");
    assertThat(RabbitListenerTokens.text(LongStringHelper.asLongString("a=b"))).isEqualTo("a=b");
  }

  private SimpleRabbitListenerContainerFactory factory() {
    SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
    processor.postProcessAfterInitialization(factory, "rabbitListenerContainerFactory");
    return factory;
  }

  /** Publishes one message through the template's own send path and returns its headers. */
  private static Map<String, Object> published(RabbitTemplate template) {
    Channel channel = mock(Channel.class);
    try {
      template.doSend(
          channel,
          "",
          "orders",
          new Message("{}".getBytes(StandardCharsets.UTF_8), new MessageProperties()),
          false,
          null);
      ArgumentCaptor<AMQP.BasicProperties> properties =
          ArgumentCaptor.forClass(AMQP.BasicProperties.class);
      verify(channel)
          .basicPublish(anyString(), anyString(), anyBoolean(), properties.capture(), any());
      return properties.getValue().getHeaders();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private GtidSet gtidsOf(Object header) {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, null);
    exchange.read(RabbitListenerTokens.text(header)).applyTo(context);
    return context.gtids();
  }

  private String token(String gtids) {
    try (ConsistencyContext.Binding bound = ConsistencyContext.open(GtidSet.parse(gtids))) {
      String value = tokens.outgoing();
      assertThat(value).isNotNull();
      return value;
    }
  }

  private static Message message(@Nullable String token) {
    MessageProperties properties = new MessageProperties();
    if (token != null) {
      properties.setHeader(HEADER, token);
    }
    return new Message("{}".getBytes(StandardCharsets.UTF_8), properties);
  }

  private static Container container(
      MessageListener listener, SimpleRabbitListenerContainerFactory factory) {
    Container container = new Container();
    Advice[] chain = factory.getAdviceChain();
    container.setAdviceChain(chain == null ? new Advice[0] : chain);
    container.setMessageListener(listener);
    container.initialize();
    return container;
  }

  /** Spring's container, called where its consumer calls its listener, without a broker. */
  private static final class Container extends SimpleMessageListenerContainer {
    void deliver(Object data) {
      invokeListener(mock(Channel.class), data);
    }
  }
}
