package io.tidemark.jdbc;

import static io.tidemark.jdbc.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyLevel;
import io.tidemark.ConsistentReadException;
import io.tidemark.Deadline;
import io.tidemark.ExecutionRecord;
import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import io.tidemark.NodeRole;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import io.tidemark.StandIns;
import io.tidemark.TestThreads;
import io.tidemark.internal.SocketTimeout;
import io.tidemark.internal.SqlText;
import io.tidemark.jdbc.NodeRoutes.Route;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsistentReaderTests {

  private static final List<String> SOURCE_UUIDS_LOOKUP =
      List.of("getConnection()", "SELECT @@GLOBAL.gtid_executed", "close()");

  private static final String SOURCE_UUID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
  private static final String REPLICA_UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String WRITES = SOURCE_UUID + ":1-7";
  private static final GtidSet TOKEN = GtidSet.parse(WRITES);
  private static final String PROMOTED = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb";
  private static final GtidSet WITH_THE_PROMOTED_SOURCES_FIRST_WRITE =
      GtidSet.parse(WRITES + "," + PROMOTED + ":1");
  private static final String STATUS = "SELECT status FROM orders WHERE id = 101";
  private static final String REVISION = "SELECT revision FROM orders WHERE id = 101";
  private static final Duration SHORT = Duration.ofMillis(300);

  private final FakeTicker ticker = new FakeTicker();
  private final FakeMysql sourceServer =
      new FakeMysql(SOURCE_UUID, ticker)
          .executed(WRITES)
          .answering(STATUS, "PAID")
          .answering(REVISION, 5L);
  private final FakeMysql replicaServer =
      new FakeMysql(REPLICA_UUID, ticker).answering(STATUS, "NEW").answering(REVISION, 4L);
  private final FakeConnection source = new FakeConnection(sourceServer);
  private final FakeConnection replica = new FakeConnection(replicaServer);
  private final List<ExecutionRecord> records = new CopyOnWriteArrayList<>();
  @RegisterExtension final TestThreads threads = TestThreads.single();
  private final ExecutorService other = threads.executor();

  @Test
  void readsTheReplicaAfterItExecutedTheToken() throws SQLException {
    replicaServer.executesAfter(Duration.ofMillis(120), WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> result = reader.read(c -> status(c));

      assertThat(result.value()).isEqualTo("NEW");
      assertThat(result.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      assertThat(result.record().node()).isEqualTo(REPLICA_UUID);
      assertThat(result.record().role()).isEqualTo(NodeRole.REPLICA);
      assertThat(result.record().waited()).isEqualTo(Duration.ofMillis(120));
      assertThat(binding.context().gtids()).isEqualTo(TOKEN);
      assertThat(binding.context().lastRead()).isEqualTo(result.record());
    }
    assertThat(replica.firstInLog(STATUS)).isGreaterThan(replica.firstInLog("WAIT_FOR"));
    assertThat(replica.firstInLog("setReadOnly(true)"))
        .as("the read runs read-only: a write would be an errant transaction on the replica")
        .isBetween(replica.firstInLog("WAIT_FOR"), replica.firstInLog(STATUS));
    assertThat(replica.firstInLog("setReadOnly(false)")).isGreaterThan(replica.firstInLog(STATUS));
    assertThat(source.log())
        .as("only the source UUIDs were looked up")
        .isEqualTo(SOURCE_UUIDS_LOOKUP);
  }

  @Test
  void recordsTheTimeOfEachPhase() throws SQLException {
    replicaServer.executesAfter(Duration.ofMillis(120), WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ExecutionRecord record =
          reader
              .read(
                  c -> {
                    ticker.advance(Duration.ofMillis(7));
                    return status(c);
                  })
              .record();

      assertThat(record.waited()).isEqualTo(Duration.ofMillis(120));
      assertThat(record.querying()).isEqualTo(Duration.ofMillis(7));
      assertThat(record.elapsed()).isEqualTo(Duration.ofMillis(127));
    }
  }

  @Test
  void tellsTheListenerOfEachReadItsWaitsAndItsEnd() throws SQLException {
    List<String> told = new CopyOnWriteArrayList<>();
    ReadListener listener =
        name -> {
          told.add("started " + name);
          return new ReadListener.Read() {
            @Override
            public ReadListener.Wait waiting(String node, boolean coalesced) {
              told.add("waiting on " + node + " coalesced=" + coalesced + " at " + ticker.read());
              return reached -> told.add("ended reached=" + reached + " at " + ticker.read());
            }

            @Override
            public void ended(@Nullable ExecutionRecord record, @Nullable Throwable failure) {
              told.add(
                  "read ended "
                      + (record == null ? null : record.reason())
                      + " "
                      + (failure == null ? null : failure.getClass().getSimpleName()));
            }
          };
        };
    replicaServer.executesAfter(Duration.ofMillis(120), WRITES);
    ConsistentReader reader = reader().listener(listener).build();
    ReadOptions failing = ReadOptions.defaults().withTimeout(SHORT).withPolicy(ReadPolicy.FAIL);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      long begun = ticker.read();
      reader.read(ReadOptions.defaults().withName("Orders.status"), c -> status(c));
      assertThat(told)
          .containsExactly(
              "started Orders.status",
              "waiting on replica coalesced=false at " + begun,
              "ended reached=true at " + (begun + Duration.ofMillis(120).toNanos()),
              "read ended REPLICA_AFTER_WAIT null");
    }
    told.clear();
    try (ConsistencyContext.Binding binding =
        ConsistencyContext.open(GtidSet.parse(SOURCE_UUID + ":1-8"))) {
      assertThatThrownBy(() -> reader.read(failing, c -> status(c)))
          .isInstanceOf(ConsistentReadException.class);
      assertThat(told).hasSize(4);
      assertThat(told.get(0)).isEqualTo("started " + ReadOptions.DEFAULT_NAME);
      assertThat(told.get(2)).startsWith("ended reached=false");
      assertThat(told.get(3)).isEqualTo("read ended WAIT_TIMEOUT ConsistentReadException");
    }
    told.clear();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      reader.read(c -> status(c));
      assertThat(told)
          .as("no wait once the replica is known to have the token")
          .containsExactly("started read", "read ended REPLICA_CAUGHT_UP null");
    }
    told.clear();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      SQLException own = new SQLException("the query's own failure", "42000");
      assertThatThrownBy(
              () ->
                  reader.read(
                      c -> {
                        throw own;
                      }))
          .isSameAs(own);
      assertThat(told).containsExactly("started read", "read ended null SQLException");
    }
  }

  @Test
  void skipsTheWaitOnceTheReplicaIsKnownToHaveTheToken() throws SQLException {
    replicaServer.executesAfter(Duration.ofMillis(10), WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      assertThat(reader.read(c -> status(c)).record().reason())
          .isEqualTo(Reason.REPLICA_AFTER_WAIT);
      int waitsBefore = replica.sent("WAIT_FOR").size() + replica.sent("GTID_SUBSET").size();

      ReadResult<String> again = reader.read(c -> status(c));

      assertThat(again.record().reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);
      assertThat(again.record().waited()).isZero();
      assertThat(replica.sent("WAIT_FOR").size() + replica.sent("GTID_SUBSET").size())
          .isEqualTo(waitsBefore);
      assertThat(binding.context().gtids()).isEqualTo(TOKEN);
    }
  }

  @Test
  void aReplicaRestoredWithLessIsWaitedForInsteadOfTrusted() throws SQLException {
    replicaServer.executesAfter(Duration.ofMillis(10), WRITES);
    ConsistentReader reader = reader().build();
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      reader.read(c -> status(c));
      assertThat(reader.read(c -> status(c)).record().reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);

      replicaServer.restoredWith("").executesAfter(Duration.ofMillis(30), WRITES);
      // A restore restarts the server, which ends every connection to it.
      replica.reconnect();
      int waitsBefore = replica.sent("WAIT_FOR").size() + replica.sent("GTID_SUBSET").size();

      ReadResult<String> afterRestore = reader.read(c -> status(c));
      assertThat(afterRestore.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
      assertThat(afterRestore.record().waited()).isEqualTo(Duration.ofMillis(30));
      assertThat(replica.sent("WAIT_FOR").size() + replica.sent("GTID_SUBSET").size())
          .isGreaterThan(waitsBefore);
    }
  }

  @Test
  void aReadServedIsKeptWhenRestoringTheSocketBoundFailsAndTheConnectionIsNotReused()
      throws SQLException {
    replicaServer.executesAfter(Duration.ofMillis(10), WRITES);
    replica.failRemovingNetworkTimeout(new SQLNonTransientConnectionException("gone", "08S01"));
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> result = reader.read(c -> status(c));

      assertThat(result.value()).isEqualTo("NEW");
      assertThat(result.record().reason()).isEqualTo(Reason.REPLICA_AFTER_WAIT);
    }
    assertThat(replica.log()).contains("abort(...)");
    assertThat(source.sent(STATUS)).as("no fallback").isEmpty();
  }

  @Test
  void everyStatementOfAReadIsBoundedByWhatIsLeftAndNoneBeginsPastTheDeadline() {
    replicaServer.executed(WRITES);
    ConsistentReader reader = reader().build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT).withPolicy(ReadPolicy.FAIL);
    List<Integer> bounds = new CopyOnWriteArrayList<>();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ConsistentReadException failure =
          catchThrowableOfType(
              ConsistentReadException.class,
              () ->
                  reader.read(
                      options,
                      c -> {
                        for (int i = 0; i < 5; i++) {
                          // Five statements of 100 ms each, in a 300 ms read.
                          try (Statement s = c.createStatement()) {
                            s.executeQuery(STATUS).close();
                            bounds.add(replica.networkTimeoutMillis());
                          }
                          ticker.advance(Duration.ofMillis(100));
                        }
                        return "read";
                      }));

      assertThat(failure.reason()).isEqualTo(Reason.BUDGET_EXHAUSTED);
    }
    assertThat(replica.sent(STATUS)).hasSize(3);
    assertThat(bounds).hasSize(3).isSortedAccordingTo((a, b) -> b - a);
    assertThat(bounds.get(2)).isLessThanOrEqualTo(100);
  }

  @Test
  void anInterruptedRetryingReadEndsAtOnceInsteadOfSpinningToItsDeadline() {
    ConsistentReader reader = reader().build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT).withPolicy(ReadPolicy.RETRY);

    // Preemptively: on the fake ticker a spinning read would never reach its deadline.
    ConsistentReadException failure =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () -> {
              try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
                // The source's UUIDs are known from an earlier read, so this one reaches its loop.
                replicaServer.executed(SOURCE_UUID + ":1-3");
                reader.read(
                    ReadOptions.defaults().requiring(GtidSet.parse(SOURCE_UUID + ":1-3")),
                    c -> status(c));
                Thread.currentThread().interrupt();
                return catchThrowableOfType(
                    ConsistentReadException.class, () -> reader.read(options, c -> status(c)));
              } finally {
                Thread.interrupted();
              }
            });

    assertThat(failure.getMessage()).contains("interrupted");
  }

  @Test
  void readsTheSourceWhenTheContextIsDirty() throws SQLException {
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      binding.context().markDirty("a write escaped capture");

      ReadResult<String> result = reader.read(c -> status(c));

      assertThat(result.value()).isEqualTo("PAID");
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_BY_POLICY);
      assertThat(result.record().node()).isEqualTo(SOURCE_UUID);
      assertThat(result.record().role()).isEqualTo(NodeRole.SOURCE);
    }
    assertThat(replica.log()).isEmpty();
  }

  @Test
  void aUnitOfWorkAboutToWriteReadsTheSourceWithTheTokenCheckedAndItsTokenUnchanged()
      throws SQLException {
    sourceServer.executed(WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      binding.context().markWriteIntent("a POST request");

      ReadResult<String> result = reader.read(c -> status(c));

      assertThat(result.value()).isEqualTo("PAID");
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FOR_WRITE);
      assertThat(result.record().role()).isEqualTo(NodeRole.SOURCE);
      assertThat(binding.context().isDirty()).isFalse();
      assertThat(binding.context().gtids()).isEqualTo(TOKEN);
    }
    assertThat(replica.log()).isEmpty();
    assertThat(source.sent("GTID_SUBSET")).hasSize(1);
  }

  @Test
  void aGlobalReadThatGoesToTheSourceAnywayDoesNotAskTheSourceItsPosition() throws SQLException {
    sourceServer.executed(WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      binding.context().markWriteIntent("a POST request");
      reader.read(ReadOptions.defaults().withLevel(ConsistencyLevel.GLOBAL), c -> status(c));
      binding.context().markDirty("a read that could not tell");
      ReadResult<String> dirty =
          reader.read(ReadOptions.defaults().withLevel(ConsistencyLevel.GLOBAL), c -> status(c));

      assertThat(dirty.record().role()).isEqualTo(NodeRole.SOURCE);
    }
    assertThat(reader.sourcePositionAsks()).as("asks of the source's position").isZero();
  }

  @Test
  void boundedReadsShareTheSourcesAnswerWhileItIsRecentEnoughAndGlobalReadsNever()
      throws SQLException {
    sourceServer.executed(WRITES);
    replicaServer.executed(WRITES);
    ConsistentReader reader = reader().build();
    ReadOptions bounded =
        ReadOptions.defaults()
            .withLevel(ConsistencyLevel.BOUNDED)
            .withMaxStaleness(Duration.ofSeconds(1));
    ReadOptions global = ReadOptions.defaults().withLevel(ConsistencyLevel.GLOBAL);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      reader.read(bounded, c -> status(c));
      ticker.advance(Duration.ofMillis(400));
      ReadResult<String> within = reader.read(bounded, c -> status(c));
      long afterBounded = reader.sourcePositionAsks();
      ticker.advance(Duration.ofMillis(1_200));
      reader.read(bounded, c -> status(c));
      long afterStale = reader.sourcePositionAsks();
      reader.read(global, c -> status(c));
      reader.read(global, c -> status(c));

      assertThat(within.record().reason()).isEqualTo(Reason.REPLICA_CAUGHT_UP);
      assertThat(afterBounded).as("asks for two reads 400 ms apart").isEqualTo(1);
      assertThat(afterStale).as("asks once the answer is older than allowed").isEqualTo(2);
      assertThat(reader.sourcePositionAsks()).as("asks after two GLOBAL reads").isEqualTo(4);
    }
  }

  @Test
  void anEventualReadServesWhatTheReplicaHasWithoutWaitingForTheToken() throws SQLException {
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> read =
          reader.read(ReadOptions.defaults().withLevel(ConsistencyLevel.EVENTUAL), c -> status(c));

      assertThat(read.value()).isEqualTo("NEW");
      assertThat(read.record().reason()).isEqualTo(Reason.REPLICA_NO_TOKEN);
      assertThat(read.record().waited()).isZero();
      assertThat(binding.context().gtids()).as("the token is kept").isEqualTo(TOKEN);
    }
  }

  @Test
  void aNegativeMaxStalenessIsRefused() {
    assertThatThrownBy(() -> ReadOptions.defaults().withMaxStaleness(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxStaleness");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        STATUS + " FOR UPDATE",
        "/* tidemark:source */ " + STATUS,
      })
  void aStatementOnlyTheSourceRunsIsRefusedOnTheReplicaAndRunsOnTheSource(String sql)
      throws SQLException {
    // The source is sent the statement without the hint.
    sourceServer.executed(WRITES).answering(SqlText.withoutHint(sql), "PAID");
    replicaServer.executed(WRITES).answering(sql, "NEW");
    ConsistentReader reader = reader().build();
    ReadOptions failing = ReadOptions.defaults().withPolicy(ReadPolicy.FAIL);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> result =
          reader.read(
              failing,
              c -> {
                try (PreparedStatement statement = c.prepareStatement(sql);
                    ResultSet rows = statement.executeQuery()) {
                  rows.next();
                  return rows.getString(1);
                }
              });

      assertThat(result.value()).isEqualTo("PAID");
      assertThat(result.record().role()).isEqualTo(NodeRole.SOURCE);
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FOR_WRITE);
    }
    assertThat(replica.sent(sql)).as("sent to the replica").isEmpty();
  }

  @Test
  void sourceOnlyReadsGoToTheSourceAfterCheckingTheToken() throws SQLException {
    sourceServer.executed(WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> result =
          reader.read(ReadOptions.defaults().withSourceOnly(), c -> status(c));

      assertThat(result.value()).isEqualTo("PAID");
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_BY_POLICY);
      assertThat(result.record().role()).isEqualTo(NodeRole.SOURCE);
    }
    assertThat(replica.log()).isEmpty();
    assertThat(source.sent("GTID_SUBSET")).hasSize(1);
  }

  @Test
  void readsTheReplicaWithoutWaitingWhenThereIsNoToken() throws SQLException {
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ReadResult<String> result = reader.read(c -> status(c));

      assertThat(result.value()).isEqualTo("NEW");
      assertThat(result.record().reason()).isEqualTo(Reason.REPLICA_NO_TOKEN);
      assertThat(result.record().node()).isEqualTo(REPLICA_UUID);
      assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);
    }
    assertThat(replica.sent("WAIT_FOR")).isEmpty();
    assertThat(replica.sent("GTID_SUBSET")).isEmpty();
    assertThat(source.log()).isEmpty();
  }

  @Test
  void aMonotonicReadTakesWhatItsReplicaExecutedAfterTheQueryButDoesNotClaimItsValueReflectsIt()
      throws SQLException {
    replicaServer.executed(WRITES + "," + SOURCE_UUID + ":8-9");
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      reader.read(ReadOptions.defaults().withMonotonic(true), c -> status(c));

      assertThat(binding.context().gtids()).isEqualTo(GtidSet.parse(SOURCE_UUID + ":1-9"));
      assertThat(binding.context().reflected()).isEqualTo(TOKEN);

      reader.read(ReadOptions.defaults().withMonotonic(true), c -> status(c));
      assertThat(binding.context().reflected())
          .as("the second read waited for what the first one saw")
          .isEqualTo(binding.context().gtids());
    }
  }

  @Test
  void aMonotonicReadWhoseServerCannotSayWhatItExecutedTurnsTheContextDirty() throws SQLException {
    replicaServer
        .executed(WRITES)
        .failing(
            "SELECT @@GLOBAL.gtid_executed",
            new SQLTimeoutException("Statement cancelled due to timeout"));
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> read =
          reader.read(ReadOptions.defaults().withMonotonic(true), c -> status(c));

      assertThat(read.value()).isEqualTo("NEW");
      assertThat(binding.context().dirtyBecause())
          .as("the next read must not go back behind what this one saw: the source has it all")
          .contains("monotonic reads");
    }
  }

  @Test
  void theReadsOfAUnitOfWorkShareItsWaitsAndTheSecondFallsBackWithoutOne() throws SQLException {
    sourceServer.executed(WRITES);
    ConsistentReader reader = reader().build();

    ReadOptions options = ReadOptions.defaults().withTimeout(Duration.ofMillis(500));

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      binding.context().shareWaits();
      ReadResult<String> first = reader.read(options, c -> status(c));
      ReadResult<String> second = reader.read(options, c -> status(c));

      assertThat(first.value()).isEqualTo("PAID");
      assertThat(first.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(first.record().waited())
          .as("its own share: the budget less the fallback's reserve and the socket grace")
          .isGreaterThan(Duration.ofMillis(200))
          .isLessThanOrEqualTo(Duration.ofMillis(250));
      assertThat(second.value()).isEqualTo("PAID");
      assertThat(second.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(second.record().waited()).isLessThan(Duration.ofMillis(10));
    }
  }

  @Test
  void aReadWhoseReplicaAlreadyHasTheTokenIsServedThereAfterTheWaitsAreSpent() throws SQLException {
    replicaServer.executed(WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      binding.context().shareWaits();
      binding.context().waitsEnd(Deadline.after(Duration.ZERO, ticker));
      ReadResult<String> read = reader.read(c -> status(c));

      assertThat(read.value()).isEqualTo("NEW");
      assertThat(read.record().role()).isEqualTo(NodeRole.REPLICA);
    }
  }

  @Test
  void failsWithTheTokenAndTheTimeWaitedWhenTheReplicaDoesNotCatchUp() {
    ConsistentReader reader = reader().build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT).withPolicy(ReadPolicy.FAIL);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ConsistentReadException failure =
          catchThrowableOfType(
              ConsistentReadException.class, () -> reader.read(options, c -> status(c)));

      assertThat(failure.reason()).isEqualTo(Reason.WAIT_TIMEOUT);
      assertThat(failure.required()).isEqualTo(binding.context().gtids()).isEqualTo(TOKEN);
      assertThat(failure.replica()).isEqualTo(REPLICA_UUID);
      assertThat(failure.waited())
          .as("the budget less the query's reserve and the socket grace")
          .isEqualTo(
              SHORT
                  .minus(ConsistentReader.Builder.DEFAULT_QUERY_RESERVE)
                  .minusMillis(SocketTimeout.SOCKET_GRACE_MILLIS));
      assertThat(failure.getMessage()).contains("WAIT_TIMEOUT", REPLICA_UUID);
      assertThat(binding.context().lastRead())
          .extracting(r -> r.reason())
          .isEqualTo(Reason.WAIT_TIMEOUT);
    }
    assertThat(replica.sent(STATUS)).isEmpty();
    assertThat(source.log())
        .as("only the source UUIDs were looked up")
        .isEqualTo(SOURCE_UUIDS_LOOKUP);
  }

  @Test
  void fallsBackToTheSourceAfterCheckingItHasTheToken() throws SQLException {
    ConsistentReader reader = reader().build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> result = reader.read(options, c -> status(c));

      assertThat(result.value()).isEqualTo("PAID");
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(result.record().node()).isEqualTo(SOURCE_UUID);
      assertThat(result.record().waited()).isPositive();
      assertThat(binding.context().gtids()).isEqualTo(TOKEN);
    }
    assertThat(source.sent("GTID_SUBSET"))
        .singleElement()
        .satisfies(check -> assertThat(check.parameter(1)).isEqualTo(TOKEN.toString()));
    assertThat(source.firstInLog("GTID_SUBSET")).isLessThan(source.firstInLog(STATUS));
    assertThat(source.firstInLog("setReadOnly(true)"))
        .as("the read runs read-only")
        .isLessThan(source.firstInLog(STATUS));
    assertThat(source.firstInLog("setReadOnly(false)")).isGreaterThan(source.firstInLog(STATUS));
  }

  @Test
  void failsWhenTheSourceLacksTheToken() {
    FakeMysql lostWrites = new FakeMysql(SOURCE_UUID, ticker).executed(SOURCE_UUID + ":1-5");
    FakeConnection failedOver = new FakeConnection(lostWrites);
    ConsistentReader reader =
        ConsistentReader.builder(replica.pool(), failedOver.pool())
            .ticker(ticker)
            .listener(ReadListener.ofRecords(records::add))
            .build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      assertThatThrownBy(() -> reader.read(options, c -> status(c)))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.TOKEN_NOT_ON_SOURCE);
                assertThat(e.required()).isEqualTo(binding.context().gtids());
                assertThat(e.lost()).isEqualTo(GtidSet.parse(SOURCE_UUID + ":6-7"));
              });
    }
    assertThat(failedOver.sent("GTID_SUBSET")).hasSize(1);
    assertThat(failedOver.sent(STATUS)).isEmpty();
  }

  @Test
  void aTokenNamingWritesFoundLostAsksTheSourceFirstNotAReplicaForItsWholeBudget() {
    FakeMysql lostWrites = new FakeMysql(SOURCE_UUID, ticker).executed(SOURCE_UUID + ":1-5");
    FakeConnection failedOver = new FakeConnection(lostWrites);
    ConsistentReader reader =
        ConsistentReader.builder(replica.pool(), failedOver.pool()).ticker(ticker).build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT);
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      catchThrowableOfType(
          ConsistentReadException.class, () -> reader.read(options, c -> status(c)));
      int waits = replica.sent("WAIT_FOR").size();
      long before = ticker.read();

      ConsistentReadException again =
          catchThrowableOfType(
              ConsistentReadException.class, () -> reader.read(options, c -> status(c)));

      assertThat(again.reason()).isEqualTo(Reason.TOKEN_NOT_ON_SOURCE);
      assertThat(again.lost()).isEqualTo(GtidSet.parse(SOURCE_UUID + ":6-7"));
      assertThat(replica.sent("WAIT_FOR")).hasSize(waits);
      assertThat(Duration.ofNanos(ticker.read() - before)).isLessThan(SHORT.dividedBy(2));
    }
  }

  @Test
  void limitsHowManyReadsFallBackToTheSourceAtOnceButNotTheSourcesOwnReads() throws Exception {
    sourceServer.executed(WRITES);
    ConsistentReader reader = reader().maxSourceFallbacks(1).build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT);
    CountDownLatch onSource = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<ReadResult<String>> first;
    try (ConsistencyContext.Binding behind = ConsistencyContext.open(TOKEN)) {
      first =
          other.submit(
              behind
                  .context()
                  .wrap(
                      () ->
                          reader.read(
                              options,
                              c -> {
                                onSource.countDown();
                                awaitOrFail(release);
                                return status(c);
                              })));
    }
    assertThat(onSource.await(10, TimeUnit.SECONDS)).isTrue();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      assertRefused(Reason.SOURCE_FALLBACK_LIMITED, () -> reader.read(options, c -> status(c)));
      assertThat(binding.context().gtids()).isEqualTo(TOKEN);
    }
    // Reads that would run on the source without Tidemark add it no load: never limited.
    try (ConsistencyContext.Binding dirty = ConsistencyContext.open()) {
      dirty.context().markDirty("a write escaped capture");
      assertThat(reader.read(options, c -> status(c)).record().reason())
          .isEqualTo(Reason.SOURCE_BY_POLICY);
    }
    try (ConsistencyContext.Binding writing = ConsistencyContext.open(TOKEN)) {
      writing.context().markWriteIntent("a POST request");
      assertThat(reader.read(options, c -> status(c)).record().reason())
          .isEqualTo(Reason.SOURCE_FOR_WRITE);
    } finally {
      release.countDown();
    }
    assertThat(first.get(10, TimeUnit.SECONDS).record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
  }

  @Test
  void checkingTheTokensSourcesEndsWithTheBudgetWhenTheSourceGivesNoConnection() {
    DataSource stuck =
        StandIns.of(
            DataSource.class,
            (proxy, method, args) -> {
              LockSupport.park();
              throw new SQLException("unparked");
            });
    ConsistentReader reader =
        ConsistentReader.builder(replica.pool(), stuck).ticker(ticker).build();
    long started = System.nanoTime();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      assertRefused(
          Reason.DATABASE_BUSY,
          () -> reader.read(ReadOptions.defaults().withTimeout(SHORT), c -> status(c)));
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
    assertThat(replica.log()).as("no replica saw the unchecked token").isEmpty();
  }

  @Test
  void aSourceUuidFirstSeenRightAfterTheListWasReadIsLookedUpAgainNotRejected()
      throws SQLException {
    ConsistentReader reader = reader().build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT);
    readOnceWithTheToken(reader, options);
    // A failover: the new source's first write, in a token, within the same instant.
    sourceServer.executed(PROMOTED + ":1");

    assertTheTokenAfterAFailoverIsServedBySource(reader, options, "PAID");
  }

  @Test
  void aUuidUnknownToTheSourceAsLastSeenIsLookedUpOnTheSourceSeenAfresh() throws SQLException {
    // A failover this instance has not seen yet: the former source lacks the new one's first GTID.
    FakeConnection newSource =
        new FakeConnection(
            new FakeMysql(PROMOTED, ticker)
                .executed(WRITES + "," + PROMOTED + ":1")
                .answering(STATUS, "SHIPPED"));
    AtomicBoolean failoverSeen = new AtomicBoolean();
    NodeRoutes routes =
        new NodeRoutes() {
          @Override
          public Route replicaFor(GtidSet required, Set<String> tables) {
            return Route.to(replica.pool(), "replica", Reason.REPLICA_AFTER_WAIT);
          }

          @Override
          public Route source() {
            return failoverSeen.get()
                ? Route.to(newSource.pool(), "new source", Reason.SOURCE_FALLBACK)
                : Route.to(source.pool(), "former source", Reason.SOURCE_FALLBACK);
          }

          @Override
          public void failed(String node) {}

          @Override
          public CompletableFuture<?> refresh() {
            failoverSeen.set(true);
            return CompletableFuture.completedFuture(null);
          }
        };
    ConsistentReader reader = ConsistentReader.builder(routes).ticker(ticker).build();
    ReadOptions options = ReadOptions.defaults().withTimeout(SHORT);
    readOnceWithTheToken(reader, options);

    assertTheTokenAfterAFailoverIsServedBySource(reader, options, "SHIPPED");
  }

  /** A first read with the token, after which the reader knows the token's source. */
  private static void readOnceWithTheToken(ConsistentReader reader, ReadOptions options)
      throws SQLException {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      reader.read(options, c -> status(c));
    }
  }

  /**
   * A read whose token holds the promoted source's first write: no replica has it, so a source
   * serves it, the one whose {@code value} is returned.
   */
  private static void assertTheTokenAfterAFailoverIsServedBySource(
      ConsistentReader reader, ReadOptions options, String value) throws SQLException {
    try (ConsistencyContext.Binding binding =
        ConsistencyContext.open(WITH_THE_PROMOTED_SOURCES_FIRST_WRITE)) {
      ReadResult<String> read = reader.read(options, c -> status(c));

      assertThat(read.value()).isEqualTo(value);
      assertThat(read.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
    }
  }

  @Test
  void aTokenWhoseSourcesCannotBeCheckedForWantOfASourceIsRefusedAsTransient() {
    replicaServer.executed(WRITES);
    NodeRoutes noSource =
        routes(
            Route.to(replica.pool(), "replica", Reason.REPLICA_AFTER_WAIT),
            Route.none(Reason.NO_WRITABLE_SOURCE, "no node accepts writes"));
    ConsistentReader reader = ConsistentReader.builder(noSource).ticker(ticker).build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      assertThatThrownBy(() -> reader.read(c -> status(c)))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.NO_WRITABLE_SOURCE);
                assertThat(e).hasMessageContaining("no node accepts writes");
              });
    }
  }

  @Test
  void readsWithNoReplicaToRouteToDoNotUseUpTheReplicaConnectionLimit() throws SQLException {
    NodeRoutes noReplica =
        routes(
            Route.none(Reason.NO_READABLE_REPLICA, "every replica is down"),
            Route.to(source.pool(), "source", Reason.SOURCE_FALLBACK));
    ConsistentReader reader =
        ConsistentReader.builder(noReplica).ticker(ticker).maxReplicaReads(1).build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      for (int i = 0; i < 3; i++) {
        assertThat(reader.read(ReadOptions.defaults().withTimeout(SHORT), c -> status(c)).value())
            .isEqualTo("PAID");
      }
      ReadOptions failFast = ReadOptions.defaults().withTimeout(SHORT).withPolicy(ReadPolicy.FAIL);
      assertRefused(Reason.NO_READABLE_REPLICA, () -> reader.read(failFast, c -> status(c)));
    }
  }

  @Test
  void fallsBackToTheSourceWhenTheReplicaRefusesConnections() throws SQLException {
    replica.refuseConnections(
        new SQLTransientConnectionException("pool: no connection within 30000 ms", "08001"));
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      ReadResult<String> result = reader.read(c -> status(c));

      assertThat(result.value()).isEqualTo("PAID");
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(binding.context().gtids()).isEqualTo(TOKEN);
    }
    assertThat(source.sent("GTID_SUBSET")).hasSize(1);
    assertThat(records).hasSize(1);
  }

  @Test
  void doesNotFallBackOnceTheReplicaAttemptRanPastTheDeadline() {
    replicaServer
        .executed(WRITES)
        .failingAfter(
            STATUS,
            SHORT,
            new SQLNonTransientConnectionException("Communications link failure", "08S01"));
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      assertThatThrownBy(
              () -> reader.read(ReadOptions.defaults().withTimeout(SHORT), c -> status(c)))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.REPLICA_ERROR);
                assertThat(e.getMessage()).contains("no time left to fall back");
              });
    }
    assertThat(source.log())
        .as("no source connection taken after the deadline")
        .isEqualTo(SOURCE_UUIDS_LOOKUP);
  }

  @Test
  void fallsBackToTheSourceWhenTheReplicaRowIsOlderThanRequired() throws SQLException {
    ConsistentReader reader = reader().build();
    ReadOptions options = ReadOptions.defaults().withMinRevision(5);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ReadResult<Long> result = reader.read(options, c -> revision(c), revision -> revision);

      assertThat(result.value()).isEqualTo(5L);
      assertThat(result.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);
    }
    assertThat(replica.sent(REVISION)).hasSize(1);
    assertThat(source.sent(REVISION)).hasSize(1);
  }

  @Test
  void recordsServedAndFailedReads() throws SQLException {
    ConsistentReader reader = reader().build();
    ReadOptions failFast = ReadOptions.defaults().withTimeout(SHORT).withPolicy(ReadPolicy.FAIL);

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      reader.read(c -> status(c));
      assertThatThrownBy(() -> reader.read(failFast.requiring(TOKEN), c -> status(c)))
          .isInstanceOf(ConsistentReadException.class);
      assertThat(binding.context().gtids()).isEqualTo(GtidSet.EMPTY);
    }

    assertThat(records).hasSize(2);
    assertThat(records.get(0).reason()).isEqualTo(Reason.REPLICA_NO_TOKEN);
    assertThat(records.get(0).node()).isEqualTo(REPLICA_UUID);
    assertThat(records.get(0).served()).isTrue();
    assertThat(records.get(1).reason()).isEqualTo(Reason.WAIT_TIMEOUT);
    assertThat(records.get(1).role()).isEqualTo(NodeRole.NONE);
    assertThat(records.get(1).served()).isFalse();
    assertThat(records.get(1).waited()).isPositive();
  }

  @Test
  void endsAnOpenTransactionBeforeWaiting() throws SQLException {
    replica.leaveTransactionOpen();
    replicaServer.executesAfter(Duration.ofMillis(10), WRITES);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      assertThat(reader.read(c -> status(c)).record().reason())
          .isEqualTo(Reason.REPLICA_AFTER_WAIT);
      assertThat(binding.context().gtids()).isEqualTo(TOKEN);
    }

    int rollback = replica.firstInLog("rollback()");
    assertThat(rollback).isNotNegative();
    assertThat(replica.firstInLog("setAutoCommit(true)")).isGreaterThan(rollback);
    assertThat(replica.firstInLog("WAIT_FOR")).isGreaterThan(rollback);
    assertThat(replica.firstInLog(STATUS)).isGreaterThan(rollback);
    assertThat(replica.log().subList(0, rollback)).noneMatch(entry -> entry.contains("GTID"));
  }

  /**
   * A transaction the replica rolled back is no failure of the read, which the source can serve: a
   * hot standby cancels a read whose locks would deadlock replay with SQLSTATE 40P01, a conflict
   * with recovery, as it does others with 40001.
   */
  @Test
  void aReadTheReplicaRollsBackAsADeadlockVictimIsAReplicaFailureThePolicyHandles()
      throws SQLException {
    replicaServer.failing(
        STATUS,
        new SQLTransactionRollbackException(
            "ERROR: canceling statement due to conflict with recovery", "40P01"));
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ReadResult<String> fellBack = reader.read(c -> status(c));

      assertThat(fellBack.value()).isEqualTo("PAID");
      assertThat(fellBack.record().reason()).isEqualTo(Reason.SOURCE_FALLBACK);
      assertThatThrownBy(
              () -> reader.read(ReadOptions.defaults().withPolicy(ReadPolicy.FAIL), c -> status(c)))
          .isInstanceOfSatisfying(
              ConsistentReadException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.REPLICA_ERROR);
                assertThat(e)
                    .hasMessageContaining("40P01")
                    .hasMessageContaining("conflict with recovery");
              });
    }
  }

  /**
   * A deadlock on the source is the read's own failure: no replica to blame, nowhere else to go.
   */
  @Test
  void aDeadlockOnTheSourceIsTheReadsOwnFailure() {
    SQLTransactionRollbackException deadlock =
        new SQLTransactionRollbackException("ERROR: deadlock detected", "40P01");
    sourceServer.failing(STATUS, deadlock);
    ConsistentReader reader = reader().build();

    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      assertThatThrownBy(() -> reader.read(ReadOptions.defaults().withSourceOnly(), c -> status(c)))
          .isSameAs(deadlock);
    }
  }

  @Test
  void builderRejectsLimitsThatCannotWork() {
    ConsistentReader.Builder builder = reader();

    assertThatThrownBy(() -> builder.maxReplicaReads(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxReplicaReads");
    assertThatThrownBy(() -> builder.maxSourceFallbacks(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxSourceFallbacks");
    assertThatThrownBy(() -> builder.maxReplicaReads(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.queryReserve(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queryReserve");
    assertThat(builder.queryReserve(Duration.ZERO).maxSourceFallbacks(1).build()).isNotNull();
  }

  /** Routes that always answer {@code replica} and {@code source}. */
  private static NodeRoutes routes(Route replica, Route source) {
    return new NodeRoutes() {
      @Override
      public Route replicaFor(GtidSet required, Set<String> tables) {
        return replica;
      }

      @Override
      public Route source() {
        return source;
      }

      @Override
      public void failed(String node) {}
    };
  }

  private ConsistentReader.Builder reader() {
    return ConsistentReader.builder(replica.pool(), source.pool())
        .ticker(ticker)
        .listener(ReadListener.ofRecords(records::add));
  }

  private static void awaitOrFail(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("never released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String status(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(STATUS)) {
      rows.next();
      return rows.getString(1);
    }
  }

  private static long revision(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(REVISION)) {
      return rows.next() ? rows.getLong(1) : Long.MIN_VALUE;
    }
  }

  @Test
  void refusesAQueryOfSeveralStatements() {
    ConsistentReader reader = reader().build();

    for (String sql :
        List.of("SELECT 1; SELECT 2", "SELECT 'a;b'", "", " ; ", "SELECT 1; DROP TABLE t;")) {
      assertThatThrownBy(() -> reader.query(reader.defaults(), sql, rows -> rows.next()))
          .as(sql)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("one statement");
    }
  }

  @Test
  void runsAQueryOfOneStatementEndedBySemicolonAloneWhereNoWaitIsNeeded() throws SQLException {
    ConsistentReader reader = reader().build();

    ReadResult<String> read =
        reader.query(
            reader.defaults(), STATUS + " ;", rows -> rows.next() ? rows.getString(1) : "");

    assertThat(read.value()).isEqualTo("NEW");
    assertThat(read.record().reason()).isEqualTo(Reason.REPLICA_NO_TOKEN);
  }

  @Test
  void refusesAMinimumRevisionWithoutARevisionFunction() {
    ConsistentReader reader = reader().build();
    ReadOptions options = ReadOptions.defaults().withMinRevision(2);

    assertThatThrownBy(() -> reader.read(options, c -> status(c)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("revision function");
  }

  @Test
  void boundsSocketReadsDuringTheReadAndRestoresTheBoundAfter() throws SQLException {
    replicaServer.executed(WRITES);
    ConsistentReader reader = reader().build();
    int[] boundDuringRead = new int[1];

    try (ConsistencyContext.Binding binding = ConsistencyContext.open(TOKEN)) {
      reader.read(
          ReadOptions.defaults().withTimeout(Duration.ofMillis(700)),
          c -> {
            String status = status(c);
            // Each statement is bounded anew when it runs.
            boundDuringRead[0] = c.getNetworkTimeout();
            return status;
          });
    }

    assertThat(boundDuringRead[0])
        .as("the query on the replica ends with its attempt, leaving the fallback its reserve")
        .isGreaterThan(700 - 200 - 50)
        .isLessThanOrEqualTo(700 - 200);
    assertThat(replica.networkTimeoutMillis()).isZero();
  }
}
