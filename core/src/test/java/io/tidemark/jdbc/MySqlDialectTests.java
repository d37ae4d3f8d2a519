package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import io.tidemark.dialect.Dialect;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MySqlDialectTests {

  private static final String REPLICA = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String SOURCE_GTIDS = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-7";
  private static final GtidSet TOKEN = GtidSet.parse(SOURCE_GTIDS);
  private static final String WAIT = "WAIT_FOR_EXECUTED_GTID_SET";
  private static final String CHECK = "GTID_SUBSET";

  private final FakeTicker ticker = new FakeTicker();
  private final FakeMysql server = new FakeMysql(REPLICA, ticker);
  private final FakeConnection replica = new FakeConnection(server);
  private final Dialect waiter = Objects.requireNonNull(Dialect.forUrl("jdbc:mysql://fake"));

  @Test
  void onlyChecksWhenLessThanAMillisecondIsLeft() throws SQLException {
    assertThat(await(0)).isFalse();
    assertThat(await(-Duration.ofMillis(5).toNanos())).isFalse();
    assertThat(await(Duration.ofMillis(1).toNanos() - 1)).isFalse();
    server.executed(SOURCE_GTIDS);
    assertThat(await(0)).isTrue();

    assertThat(replica.sent())
        .extracting(FakeConnection.Sent::sql)
        .allMatch(s -> s.contains(CHECK));
    assertThat(replica.sent(WAIT)).isEmpty();
  }

  @Test
  void sendsTheWaitBeforeTheQueryInOneTextWithTheSetAsALiteral() {
    GtidSet scattered = GtidSet.parse(SOURCE_GTIDS + ":9-12," + REPLICA + ":1-3");

    assertThat(waiter.waitThen(scattered, 250, "SELECT status FROM orders WHERE id = ?", false))
        .isEqualTo(
            "SELECT /*+ MAX_EXECUTION_TIME(250) */ WAIT_FOR_EXECUTED_GTID_SET('"
                + scattered
                + "', 1); SELECT status FROM orders WHERE id = ?");
    assertThat(waiter.waitThen(scattered, 250, "SELECT status FROM orders WHERE id = ?", true))
        .as("reads waiting for it to tell what the replica has executed")
        .isEqualTo(
            "SELECT /*+ MAX_EXECUTION_TIME(250) */ WAIT_FOR_EXECUTED_GTID_SET('"
                + scattered
                + "', 1), @@GLOBAL.gtid_executed; SELECT status FROM orders WHERE id = ?");
    assertThat(waiter.waitThen(TOKEN, 250, "SELECT 1; SELECT 2", true))
        .as("a text of several statements waits alone")
        .isNull();
  }

  @Test
  void waitsOnceOnTheServerForTheBudgetToTheMillisecond() throws SQLException {
    long start = ticker.read();

    assertThat(await(Duration.ofMillis(300).toNanos() + 999_999)).isFalse();

    assertThat(replica.sent())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.sql())
                  .isEqualTo(
                      "SELECT /*+ MAX_EXECUTION_TIME(300) */ WAIT_FOR_EXECUTED_GTID_SET(?, 1)");
              assertThat(s.parameter(1)).isEqualTo(TOKEN.toString());
            });
    assertThat(ticker.since(start)).isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void givesTheServerWholeSecondsAtLeastAsLongAsTheBudget() throws SQLException {
    await(Duration.ofMillis(2001).toNanos());

    assertThat(replica.sent(WAIT))
        .singleElement()
        .satisfies(s -> assertThat(s.sql()).contains("MAX_EXECUTION_TIME(2001)").contains(", 3)"));
  }

  @Test
  void returnsAsSoonAsTheReplicaExecutesTheToken() throws SQLException {
    server.executesAfter(Duration.ofMillis(170), SOURCE_GTIDS);
    long start = ticker.read();

    assertThat(await(Duration.ofMillis(300).toNanos())).isTrue();

    assertThat(ticker.since(start)).isEqualTo(Duration.ofMillis(170));
    assertThat(replica.sent(WAIT)).hasSize(1);
  }

  @Test
  void otherErrorsOfTheWaitAreRaised() {
    SQLException killed = new SQLException("Query execution was interrupted", "70100", 1317);
    server.failing(
        "SELECT /*+ MAX_EXECUTION_TIME(300) */ WAIT_FOR_EXECUTED_GTID_SET(?, 1)", killed);

    assertThatThrownBy(() -> await(Duration.ofMillis(300).toNanos())).isSameAs(killed);
  }

  static LongStream seeds() {
    return LongStream.range(0, 10);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void neverWaitsLongerThanTheBudgetNorWithoutATimeout(long seed) throws SQLException {
    SplittableRandom random = new SplittableRandom(seed);
    long[] edges = {0, 1, 999_999, 1_000_000, 999_999_999, 1_000_000_000, 1_000_000_001};
    for (int i = 0; i < 40; i++) {
      long budget =
          i < edges.length ? edges[i] : random.nextLong(Duration.ofSeconds(3).toNanos() + 1);
      long start = ticker.read();

      // The fake refuses a wait with a timeout of 0 or shorter than its timer.
      waiter.await(replica.connection(), TOKEN, budget);

      assertThat(ticker.since(start))
          .as("budget %d ns", budget)
          .isLessThanOrEqualTo(Duration.ofNanos(budget).abs());
    }
  }

  @Test
  void aWaitThatReturnsTellsWhatTheServerHadExecutedThen() throws SQLException {
    String more = SOURCE_GTIDS.replace("1-7", "1-9") + "," + REPLICA + ":1-2";
    server.executesAfter(Duration.ofMillis(50), more);
    List<GtidSet> seen = new ArrayList<>();

    assertThat(
            waiter.await(replica.connection(), TOKEN, Duration.ofMillis(300).toNanos(), seen::add))
        .isTrue();

    assertThat(seen).containsExactly(GtidSet.parse(more));
  }

  private boolean await(long budgetNanos) throws SQLException {
    return waiter.await(replica.connection(), TOKEN, budgetNanos);
  }
}
