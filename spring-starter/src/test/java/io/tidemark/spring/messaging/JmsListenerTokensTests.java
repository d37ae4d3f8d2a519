package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.token.TokenExchange;
import io.tidemark.token.TokenRejectedException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.jms.listener.SessionAwareMessageListener;
import org.springframework.jms.listener.SimpleMessageListenerContainer;

/**
 * The listener stand-in, called as a container calls it: of the user's listener's kind, in the
 * context of the message's token, and unbound afterwards whatever the listener did.
 */
class JmsListenerTokensTests {

  private static final String GTIDS = TestTokens.A + ":1-7";

  private final List<String> rejected = new ArrayList<>();
  private final MessageTokens tokens = tokens(rejected);

  @Test
  void aPlainListenerStaysPlainAndRunsInItsMessagesContext() throws Exception {
    AtomicReference<@Nullable ConsistencyContext> seen = new AtomicReference<>();
    DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
    container.setMessageListener(
        (MessageListener) message -> seen.set(ConsistencyContext.currentOrNull()));

    assertThat(JmsListenerTokens.cover(container, () -> tokens)).isTrue();
    Object covered = container.getMessageListener();
    assertThat(covered)
        .isInstanceOf(MessageListener.class)
        .isNotInstanceOf(SessionAwareMessageListener.class);
    ((MessageListener) covered).onMessage(message(TestTokens.header("default", GTIDS)));

    assertThat(seen.get()).isNotNull();
    assertThat(seen.get().gtids()).isEqualTo(GtidSet.parse(GTIDS));
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void aSessionAwareListenerStaysSessionAwareAndGetsTheContainersSession() throws Exception {
    Session session = stub(Session.class, new HashMap<>());
    AtomicReference<@Nullable Session> given = new AtomicReference<>();
    AtomicReference<@Nullable ConsistencyContext> seen = new AtomicReference<>();
    SimpleMessageListenerContainer container = new SimpleMessageListenerContainer();
    container.setMessageListener(
        (SessionAwareMessageListener<Message>)
            (message, current) -> {
              given.set(current);
              seen.set(ConsistencyContext.currentOrNull());
            });

    JmsListenerTokens.cover(container, () -> tokens);
    @SuppressWarnings("unchecked")
    SessionAwareMessageListener<Message> covered =
        (SessionAwareMessageListener<Message>) container.getMessageListener();
    covered.onMessage(message(TestTokens.header("default", GTIDS)), session);

    assertThat(container.getMessageListener()).isNotInstanceOf(MessageListener.class);
    assertThat(given.get()).isSameAs(session);
    assertThat(seen.get().gtids()).isEqualTo(GtidSet.parse(GTIDS));
  }

  @Test
  void theBindingEndsWhenTheListenerThrowsAndTheOuterContextComesBack() {
    DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
    container.setMessageListener(
        (MessageListener)
            message -> {
              assertThat(ConsistencyContext.current().gtids()).isEqualTo(GtidSet.parse(GTIDS));
              throw new IllegalStateException("the listener failed");
            });
    JmsListenerTokens.cover(container, () -> tokens);
    MessageListener covered = (MessageListener) container.getMessageListener();

    try (ConsistencyContext.Binding outer = ConsistencyContext.open()) {
      assertThatThrownBy(() -> covered.onMessage(message(TestTokens.header("default", GTIDS))))
          .hasMessage("the listener failed");
      assertThat(ConsistencyContext.current()).isSameAs(outer.context());
    }
    assertThat(ConsistencyContext.currentOrNull()).isNull();
  }

  @Test
  void aMessageWithoutTheTokenRunsInAnEmptyCleanContext() {
    ConsistencyContext seen = seenByACoveredListener(message(null));

    assertThat(seen.gtids().isEmpty()).isTrue();
    assertThat(seen.isDirty()).isFalse();
    assertThat(rejected).isEmpty();
  }

  @Test
  void aTokenThatDoesNotVerifySendsTheReadsToTheSourceAndCounts() {
    String forged = TestTokens.header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", GTIDS);

    assertThat(seenByACoveredListener(message(forged)).isDirty()).isTrue();
    assertThat(rejected).hasSize(1).allMatch(entry -> entry.startsWith("jms:"));
  }

  @Test
  void aTokenPropertyThatCannotBeReadSendsTheReadsToTheSourceAndCounts() {
    Message unreadable =
        stub(
            Message.class,
            Map.of("ConsistencyToken", new MessageFormatException("not convertible to a String")));

    assertThat(seenByACoveredListener(unreadable).isDirty()).isTrue();
    assertThat(rejected).containsExactly("jms:MALFORMED");
  }

  @Test
  void aContainerIsCoveredOnceAndOneWithoutAListenerIsNot() {
    DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
    assertThat(JmsListenerTokens.cover(container, () -> tokens)).isFalse();
    assertThat(JmsListenerTokens.covered(container)).isFalse();

    container.setMessageListener((MessageListener) message -> {});
    JmsListenerTokens.cover(container, () -> tokens);
    Object once = container.getMessageListener();
    JmsListenerTokens.cover(container, () -> tokens);

    assertThat(container.getMessageListener()).isSameAs(once);
    assertThat(JmsListenerTokens.covered(container)).isTrue();
  }

  @Test
  void aDurableSubscriptionKeepsTheNameOfTheUsersListener() {
    DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
    MessageListener listener = message -> {};
    container.setMessageListener(listener);
    JmsListenerTokens.cover(container, () -> tokens);

    assertThat(container.getSubscriptionName()).isEqualTo(listener.getClass().getName());
  }

  /** The rules of an application signing with the tests' secret, counting rejections. */
  static MessageTokens tokens(List<String> rejected) {
    TidemarkProperties properties = TestTokens.properties();
    TokenExchange exchange = TestTokens.exchange("Consistency-Token", Duration.ofSeconds(1));
    return new MessageTokens(
        exchange,
        new TidemarkMessagingProperties(),
        (String technology, TokenRejectedException.Check reason) ->
            rejected.add(technology + ":" + reason));
  }

  /** A received message whose token property is {@code token}: only properties are read. */
  /** The context a plain listener, covered, runs in for {@code message}; there must be one. */
  private ConsistencyContext seenByACoveredListener(Message message) {
    AtomicReference<@Nullable ConsistencyContext> seen = new AtomicReference<>();
    DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
    container.setMessageListener(
        (MessageListener) listened -> seen.set(ConsistencyContext.currentOrNull()));
    JmsListenerTokens.cover(container, () -> tokens);

    ((MessageListener) container.getMessageListener()).onMessage(message);

    ConsistencyContext context = seen.get();
    assertThat(context).as("the listener's context").isNotNull();
    return context;
  }

  private static Message message(@Nullable String token) {
    Map<String, Object> properties = new HashMap<>();
    if (token != null) {
      properties.put("ConsistencyToken", token);
    }
    return stub(Message.class, properties);
  }

  private static <T> T stub(Class<T> type, Map<String, Object> properties) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getStringProperty", "getObjectProperty" -> {
                    Object value = properties.get((String) args[0]);
                    if (value instanceof Throwable failure) {
                      throw failure;
                    }
                    yield value;
                  }
                  case "toString" -> "a " + type.getSimpleName();
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> throw new UnsupportedOperationException(method.getName());
                }));
  }
}
