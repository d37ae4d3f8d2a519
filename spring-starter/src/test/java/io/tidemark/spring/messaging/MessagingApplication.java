package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.spring.Replication;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Two services as a user would write them, around one broker: the producer writes an order and
 * publishes its id (after an auto-committed write, inside a transaction, or after the commit); the
 * consumer's listener reads the order under {@code @ReadYourWrites} on the replica. Each broker's
 * test adds a {@link Publisher} and listeners that hand what arrives to {@link Received}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({MessagingApplication.Orders.class, MessagingApplication.Reads.class, Received.class})
class MessagingApplication {

  static final String SECRET = "a-messaging-secret-of-at-least-32-chars";
  static final String CLUSTER = "shop";

  /** The orders table, in SQL both databases take. */
  static final String ORDERS = "CREATE TABLE orders (id BIGINT PRIMARY KEY, note VARCHAR(40))";

  /** Sends a payload on the broker, from the calling thread. */
  interface Publisher {
    void publish(String payload);

    /** Sends to the batch listener. */
    void publishToBatch(String payload);

    /** Sends with the token header set by hand to {@code header}. */
    void publishWithHeader(String payload, String header);
  }

  /**
   * Starts one instance on {@code replication} with {@code broker}'s configuration and properties.
   */
  static ConfigurableApplicationContext start(
      Replication replication, Class<?> broker, String... extra) {
    Map<String, Object> properties = replication.applicationProperties(CLUSTER, SECRET);
    properties.put("spring.jpa.hibernate.ddl-auto", "none");
    // A round holds the applier for as long as the producer takes to send it, which on a slow
    // machine passes the default 5 s: the replica would then be rightly skipped for its lag, or
    // the first read of the round time out, and the tests are about the token, not the lag.
    properties.put("tidemark.topology.max-lag", "1m");
    properties.put("messaging.broker", broker.getSimpleName());
    for (String pair : extra) {
      int equals = pair.indexOf('=');
      properties.put(pair.substring(0, equals), pair.substring(equals + 1));
    }
    return new SpringApplicationBuilder(MessagingApplication.class, broker)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run();
  }

  /** How the producer sends relative to its write. */
  enum Send {
    AFTER_WRITE,
    INSIDE_TRANSACTION,
    AFTER_COMMIT,
    TO_BATCH
  }

  /** The database and the two instances a delivery goes between: one publishes, one listens. */
  record Instances(
      Replication replication,
      ConfigurableApplicationContext producer,
      ConfigurableApplicationContext consumer) {

    /** These instances, but {@code other} publishes. */
    Instances publishingWith(ConfigurableApplicationContext other) {
      return new Instances(replication, other, consumer);
    }

    /** Closes both instances; the database is its starter's to close. */
    void close() {
      producer.close();
      consumer.close();
    }
  }

  /** What the consumer's rounds saw. */
  record Tally(
      int messages, int stale, int onReplica, int onSource, Map<Reason, Integer> reasons) {}

  private static final AtomicLong ids = new AtomicLong(System.nanoTime() % 1_000_000_000L);

  /**
   * {@code rounds} times: pauses the replica's applier, has the producer write and publish {@code
   * perRound} orders as {@code send} says, each in a unit of work of its own, resumes the applier a
   * little later, and collects what the consumer's listener read.
   */
  static Tally deliver(Instances instances, Send send, int rounds, int perRound) {
    Replication replication = instances.replication();
    Orders orders = instances.producer().getBean(Orders.class);
    Received received = instances.consumer().getBean(Received.class);
    long started = System.nanoTime();
    int messages = 0;
    int stale = 0;
    int onReplica = 0;
    int onSource = 0;
    Map<Reason, Integer> reasons = new TreeMap<>();
    for (int round = 0; round < rounds; round++) {
      replication.pauseReplica();
      CompletableFuture<Void> resume;
      try {
        for (int i = 0; i < perRound; i++) {
          long id = ids.incrementAndGet();
          try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
            switch (send) {
              case AFTER_WRITE -> orders.createAndPublish(id);
              case INSIDE_TRANSACTION -> orders.createAndPublishInTransaction(id);
              case AFTER_COMMIT -> orders.createAndPublishAfterCommit(id);
              case TO_BATCH -> orders.createAndPublishToBatch(id);
            }
          }
        }
      } finally {
        resume = replication.resumeReplicaAfter(Duration.ofMillis(300));
      }
      int seen = 0;
      while (seen < perRound) {
        Received.Outcome outcome = received.next();
        seen += outcome.ids();
        reasons.merge(outcome.reason(), outcome.ids(), Integer::sum);
        stale += outcome.ids() - outcome.found();
        if (outcome.reason() == Reason.SOURCE_BY_POLICY
            || outcome.reason() == Reason.SOURCE_FALLBACK) {
          onSource += outcome.ids();
        } else {
          onReplica += outcome.ids();
        }
      }
      messages += seen;
      resume.join();
    }
    assertThat(received.pending()).as("outcomes beyond the messages sent").isZero();
    System.out.printf(
        "figures: %s %s: %d messages, %d stale, %d on a replica, %d on the source, %d ms%n",
        instances.consumer().getEnvironment().getProperty("messaging.broker"),
        send,
        messages,
        stale,
        onReplica,
        onSource,
        (System.nanoTime() - started) / 1_000_000);
    return new Tally(messages, stale, onReplica, onSource, reasons);
  }

  /**
   * The control of a broker whose tokens are off: {@code context} writes and publishes 50 orders
   * while the replica receives nothing, until its own listener has read them all, so that a
   * listener without the token can only miss them, however late its broker delivers.
   */
  static Tally deliverWithoutTokens(
      Replication replication, ConfigurableApplicationContext context) {
    replication.stopReceiving();
    try {
      return deliver(new Instances(replication, context, context), Send.AFTER_WRITE, 1, 50);
    } finally {
      replication.startReceiving();
    }
  }

  /**
   * Has the producer write two orders with the replica's applier paused and publish them, from a
   * thread without a context, with an expired and a forged token; the consumer's listener must read
   * both on the source, and count each rejection against {@code technology}.
   */
  static void deliverRejected(Instances instances, String technology) {
    Replication replication = instances.replication();
    MeterRegistry meters = instances.consumer().getBean(MeterRegistry.class);
    Received received = instances.consumer().getBean(Received.class);
    Orders orders = instances.producer().getBean(Orders.class);
    Publisher publisher = instances.producer().getBean(Publisher.class);
    long expired = ids.incrementAndGet();
    long forged = ids.incrementAndGet();
    replication.pauseReplica();
    try {
      GtidSet written;
      try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
        orders.create(expired);
        orders.create(forged);
        written = unit.context().gtids();
      }
      publisher.publishWithHeader(Long.toString(expired), expiredHeader(written));
      publisher.publishWithHeader(Long.toString(forged), forgedHeader(written));

      for (int i = 0; i < 2; i++) {
        Received.Outcome outcome = received.next();
        assertThat(outcome.found()).isEqualTo(1);
        assertThat(outcome.dirty()).isTrue();
        assertThat(outcome.reason()).isEqualTo(Reason.SOURCE_BY_POLICY);
      }
    } finally {
      replication.resumeReplica();
    }
    for (String reason : List.of("expired", "bad_signature")) {
      assertThat(
              meters
                  .get("tidemark.messaging.rejected")
                  .tag("technology", technology)
                  .tag("reason", reason)
                  .counter()
                  .count())
          .as(reason)
          .isEqualTo(1.0);
    }
  }

  /** A header value with a token of {@code gtids} that expired a day ago. */
  private static String expiredHeader(GtidSet gtids) {
    return header(SECRET, InstantSource.fixed(Instant.now().minus(Duration.ofDays(2))), gtids);
  }

  /** A header value with a token of {@code gtids} signed with a secret no instance has. */
  private static String forgedHeader(GtidSet gtids) {
    return header(TestTokens.OTHER_SECRET, InstantSource.system(), gtids);
  }

  private static String header(String secret, InstantSource clock, GtidSet gtids) {
    TokenCodec codec =
        new TokenCodec(
            TokenConfig.builder(
                    KeyRing.builder()
                        .key("k1", secret.getBytes(StandardCharsets.UTF_8))
                        .active("k1")
                        .build())
                .clock(clock)
                .build());
    return codec.withToken(ConsistencyHeader.EMPTY, codec.issue(CLUSTER, gtids)).toString();
  }

  @Service
  static class Orders {
    private final JdbcTemplate jdbc;
    private final Publisher publisher;
    private final ApplicationEventPublisher events;

    Orders(JdbcTemplate jdbc, Publisher publisher, ApplicationEventPublisher events) {
      this.jdbc = jdbc;
      this.publisher = publisher;
      this.events = events;
    }

    void create(long id) {
      jdbc.update("INSERT INTO orders VALUES (?, 'new')", id);
    }

    /** An auto-committed write, then the message. */
    void createAndPublish(long id) {
      create(id);
      publisher.publish(Long.toString(id));
    }

    void createAndPublishToBatch(long id) {
      create(id);
      publisher.publishToBatch(Long.toString(id));
    }

    /** The message is sent before the write it follows commits. */
    @Transactional
    public void createAndPublishInTransaction(long id) {
      create(id);
      publisher.publish(Long.toString(id));
    }

    record Created(long id) {}

    // tag::after-commit[]
    @Transactional
    public void createAndPublishAfterCommit(long id) {
      create(id);
      events.publishEvent(new Created(id));
    }

    // Runs once the transaction has committed: the message's token covers the order.
    @TransactionalEventListener
    public void committed(Created created) {
      publisher.publish(Long.toString(created.id()));
    }
    // end::after-commit[]
  }

  @Service
  static class Reads {
    private final NamedParameterJdbcTemplate jdbc;

    Reads(NamedParameterJdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    /** How many of {@code ids} the read finds. */
    @ReadYourWrites(timeout = 30_000)
    public int found(List<Long> ids) {
      Integer found =
          jdbc.queryForObject(
              "SELECT COUNT(*) FROM orders WHERE id IN (:ids)", Map.of("ids", ids), Integer.class);
      return found == null ? 0 : found;
    }
  }
}
