package io.tidemark.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import io.tidemark.token.TokenRejectedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

class MessageTokensTests {

  private static final String WRITTEN = TestTokens.A + ":1-7";

  private final TokenCodec codec = TestTokens.codec();
  private final List<String> rejected = new ArrayList<>();
  private final MessageTokens tokens =
      new MessageTokens(
          new TokenExchange(
              codec,
              "default",
              "Consistency-Token",
              Duration.ofMillis(500),
              timeout -> GtidSet.parse(WRITTEN)),
          new TidemarkMessagingProperties(),
          (technology, reason) -> rejected.add(technology + ":" + reason));
  private final EmbeddedDatabase database =
      new EmbeddedDatabaseBuilder()
          .setType(EmbeddedDatabaseType.H2)
          .generateUniqueName(true)
          .build();
  private final DataSourceTransactionManager transactions =
      new DataSourceTransactionManager(database);

  @AfterEach
  void shutDown() {
    database.shutdown();
  }

  @Test
  void aMessageSentOutsideAnyUnitOfWorkGetsNoHeader() {
    assertThat(tokens.outgoing()).isNull();
  }

  @Test
  void aMessageSentAfterAWriteCarriesATokenCoveringIt() {
    try (ConsistencyContext.Binding unit = ConsistencyContext.open(GtidSet.parse(WRITTEN))) {
      ConsistencyToken token = token(tokens.outgoing());

      assertThat(token.requiresSource()).isFalse();
      assertThat(token.gtids()).isEqualTo(GtidSet.parse(WRITTEN));
    }
  }

  @Test
  void aMessageSentWhileATransactionOfItsUnitOfWorkHasUncommittedWritesCarriesAMarker() {
    // As from a NOT_SUPPORTED method, or another thread sharing the unit of work: this thread has
    // no transaction, while the unit of work's write has not committed.
    try (ConsistencyContext.Binding unit = ConsistencyContext.open()) {
      unit.context().transactionWrote();

      assertThat(token(tokens.outgoing()).requiresSource()).isTrue();

      unit.context().transactionEnded();
      unit.context().merge(GtidSet.parse(WRITTEN));
      assertThat(token(tokens.outgoing()).requiresSource()).as("once committed").isFalse();
    }
  }

  @Test
  void aMessageSentInsideAReadWriteDatabaseTransactionCarriesAMarker() {
    try (ConsistencyContext.Binding unit = ConsistencyContext.open(GtidSet.parse(WRITTEN))) {
      String header = new TransactionTemplate(transactions).execute(status -> tokens.outgoing());

      assertThat(token(header).requiresSource()).isTrue();
      assertThat(token(header).gtids()).isEqualTo(GtidSet.parse(WRITTEN));
    }
  }

  @Test
  void aMessageSentInsideAReadOnlyTransactionCarriesTheToken() {
    TransactionTemplate readOnly = new TransactionTemplate(transactions);
    readOnly.setReadOnly(true);
    try (ConsistencyContext.Binding unit = ConsistencyContext.open(GtidSet.parse(WRITTEN))) {
      assertThat(token(readOnly.execute(status -> tokens.outgoing())).requiresSource()).isFalse();
    }
  }

  @Test
  void aMessageSentOnceTheTransactionCommittedCarriesTheToken() {
    AtomicReference<@Nullable String> afterCommit = new AtomicReference<>();
    try (ConsistencyContext.Binding unit = ConsistencyContext.open(GtidSet.parse(WRITTEN))) {
      new TransactionTemplate(transactions)
          .executeWithoutResult(
              status ->
                  TransactionSynchronizationManager.registerSynchronization(
                      new TransactionSynchronization() {
                        @Override
                        public void afterCompletion(int completed) {
                          afterCommit.set(tokens.outgoing());
                        }
                      }));
    }

    assertThat(token(afterCommit.get()).requiresSource()).isFalse();
  }

  @Test
  void aMessageSentInsideABrokersOwnTransactionCarriesTheToken() {
    try (ConsistencyContext.Binding unit = ConsistencyContext.open(GtidSet.parse(WRITTEN))) {
      String header =
          new TransactionTemplate(new BrokerTransactions()).execute(status -> tokens.outgoing());

      assertThat(token(header).requiresSource()).isFalse();
    }
  }

  @Test
  void aBatchIsReadWithTheUnionOfItsTokensAndAMessageWithoutOneAddsNothing() {
    ConsistencyContext context =
        tokens.incoming(
            "kafka",
            Arrays.asList(header(TestTokens.A + ":1-3"), null, header(TestTokens.A + ":9")));

    assertThat(context.gtids()).isEqualTo(GtidSet.parse(TestTokens.A + ":1-3:9"));
    assertThat(context.isDirty()).isFalse();
    assertThat(rejected).isEmpty();
  }

  @Test
  void aTokenThatDoesNotVerifyMakesTheListenersContextDirtyAndIsCounted() {
    String forged =
        TestTokens.header(TestTokens.codec(TestTokens.OTHER_SECRET), "default", WRITTEN);

    ConsistencyContext context =
        tokens.incoming("rabbit", List.of(header(TestTokens.A + ":1-3"), forged));

    assertThat(context.isDirty()).isTrue();
    assertThat(context.gtids()).isEqualTo(GtidSet.parse(TestTokens.A + ":1-3"));
    assertThat(rejected).containsExactly("rabbit:" + TokenRejectedException.Check.BAD_SIGNATURE);
  }

  private String header(String gtids) {
    return TestTokens.header("default", gtids);
  }

  private ConsistencyToken token(@Nullable String header) {
    assertThat(header).as("a header").isNotNull();
    return codec.verify(codec.parseHeader(header), "default").orElseThrow();
  }

  /** A transaction of a broker's own, as Kafka's or a transacted channel's: no database in it. */
  @SuppressWarnings("serial")
  private static final class BrokerTransactions extends AbstractPlatformTransactionManager {
    @Override
    protected Object doGetTransaction() {
      return new Object();
    }

    @Override
    protected void doBegin(Object transaction, TransactionDefinition definition) {
      TransactionSynchronizationManager.bindResource(this, transaction);
    }

    @Override
    protected void doCommit(DefaultTransactionStatus status) {
      TransactionSynchronizationManager.unbindResource(this);
    }

    @Override
    protected void doRollback(DefaultTransactionStatus status) {
      TransactionSynchronizationManager.unbindResource(this);
    }
  }
}
