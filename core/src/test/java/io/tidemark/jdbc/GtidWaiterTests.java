package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.BIG_DECIMAL;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GtidWaiterTests {

  private static final String REPLICA = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String OTHER_REPLICA = "5c3a4b52-0f6d-11ef-8d3e-0242ac120003";
  private static final String SOURCE_GTIDS = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-7";
  private static final GtidSet TOKEN = GtidSet.parse(SOURCE_GTIDS);
  private static final String WAIT = "WAIT_FOR_EXECUTED_GTID_SET(?, ?)";
  private static final String PROBE = "0.05";
  private static final String CHECK = "GTID_SUBSET";

  private final FakeTicker ticker = new FakeTicker();
  private final GtidWaiter waiter = new GtidWaiter(ticker);

  @Test
  void onlyChecksWhenNoBudgetIsLeft() throws SQLException {
    for (FakeMysql server : List.of(newerServer(), olderServer())) {
      FakeConnection replica = new FakeConnection(server);

      assertThat(await(replica, 0)).isFalse();
      assertThat(await(replica, -Duration.ofMillis(5).toNanos())).isFalse();
      server.executed(SOURCE_GTIDS);
      assertThat(await(replica, 0)).isTrue();

      assertThat(replica.sent())
          .extracting(FakeConnection.Sent::sql)
          .allMatch(s -> s.contains(CHECK));
      assertThat(replica.sent("WAIT_FOR_EXECUTED_GTID_SET")).isEmpty();
    }
  }

  @Test
  void waitsOnceForTheWholeBudgetOnAServerThatHonoursFractions() throws SQLException {
    FakeConnection replica = new FakeConnection(newerServer());
    await(replica, Duration.ofSeconds(1).toNanos()); // measures the server
    int before = replica.sent().size();
    long start = ticker.read();

    boolean executed = await(replica, Duration.ofMillis(300).toNanos());

    assertThat(executed).isFalse();
    List<FakeConnection.Sent> sent = replica.sent().subList(before, replica.sent().size());
    assertThat(sent).singleElement().satisfies(s -> assertThat(s.sql()).contains(WAIT));
    assertThat(sent.get(0).parameter(1)).isEqualTo(TOKEN.toString());
    assertThat(sent.get(0).parameter(2)).asInstanceOf(BIG_DECIMAL).isEqualByComparingTo("0.300");
    assertThat(ticker.since(start)).isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void returnsAsSoonAsTheReplicaExecutesTheToken() throws SQLException {
    FakeConnection replica =
        new FakeConnection(newerServer().executesAfter(Duration.ofMillis(170), SOURCE_GTIDS));
    long start = ticker.read();

    assertThat(await(replica, Duration.ofMillis(300).toNanos())).isTrue();

    assertThat(ticker.since(start)).isEqualTo(Duration.ofMillis(170));
    assertThat(replica.sent(WAIT)).hasSize(1);
  }

  @Test
  void keepsTheFirstWaitOnAServerWithinItsBudget() throws SQLException {
    FakeConnection replica = new FakeConnection(newerServer());
    long start = ticker.read();

    assertThat(await(replica, Duration.ofMillis(300).toNanos())).isFalse();

    // The probes that measure the server are part of the wait and come out of its budget.
    assertThat(replica.sent(PROBE)).hasSize(2);
    assertThat(ticker.since(start)).isLessThanOrEqualTo(Duration.ofMillis(300));
  }

  @Test
  void pollsOnAServerThatTruncatesFractionsWhenLessThanASecondIsLeft() throws SQLException {
    FakeConnection replica = new FakeConnection(olderServer());
    long start = ticker.read();

    assertThat(await(replica, Duration.ofMillis(300).toNanos())).isFalse();

    assertThat(replica.sent(WAIT)).isEmpty();
    assertThat(replica.sent(CHECK)).hasSizeGreaterThan(1);
    assertThat(replica.sent().get(replica.sent().size() - 1).sql()).contains(CHECK);
    assertThat(ticker.since(start)).isBetween(Duration.ofMillis(300), Duration.ofMillis(301));
  }

  @Test
  void noticesByPollingWhenATruncatingServerExecutesTheToken() throws SQLException {
    FakeConnection replica =
        new FakeConnection(olderServer().executesAfter(Duration.ofMillis(120), SOURCE_GTIDS));
    long start = ticker.read();

    assertThat(await(replica, Duration.ofMillis(300).toNanos())).isTrue();

    assertThat(replica.sent(WAIT)).isEmpty();
    assertThat(ticker.since(start)).isBetween(Duration.ofMillis(120), Duration.ofMillis(121));
  }

  @Test
  void waitsTheWholeSecondsOnATruncatingServerThenPollsTheRest() throws SQLException {
    FakeConnection replica = new FakeConnection(olderServer());
    long start = ticker.read();

    assertThat(await(replica, Duration.ofMillis(2500).toNanos())).isFalse();

    assertThat(replica.sent(WAIT))
        .singleElement()
        .satisfies(
            s -> assertThat(s.parameter(2)).asInstanceOf(BIG_DECIMAL).isEqualByComparingTo("2"));
    int waitAt = replica.firstInLog(WAIT);
    assertThat(replica.firstInLog(CHECK)).isGreaterThan(waitAt);
    assertThat(replica.firstInLog(PROBE)).isLessThan(waitAt);
    assertThat(ticker.since(start)).isBetween(Duration.ofMillis(2500), Duration.ofMillis(2501));
  }

  @Test
  void probesEachServerOnlyOnce() throws SQLException {
    FakeConnection first = new FakeConnection(newerServer());
    FakeConnection again = new FakeConnection(newerServer());
    FakeConnection other = new FakeConnection(new FakeMysql(OTHER_REPLICA, ticker));

    await(first, Duration.ofMillis(300).toNanos());
    await(first, Duration.ofMillis(300).toNanos());
    await(again, Duration.ofMillis(300).toNanos());
    waiter.await(other.connection(), OTHER_REPLICA, TOKEN, Duration.ofMillis(300).toNanos());

    assertThat(first.sent(PROBE)).as("a slow probe is confirmed by a second").hasSize(2);
    assertThat(again.sent(PROBE)).isEmpty();
    assertThat(other.sent(PROBE)).hasSize(2);
  }

  @Test
  void oneStalledProbeDoesNotMakeATruncatingServerLookHonouring() throws SQLException {
    FakeConnection replica = new FakeConnection(olderServer().stallingProbes(1));

    await(replica, Duration.ofMillis(300).toNanos());

    assertThat(replica.sent(PROBE)).hasSize(2);
    assertThat(replica.sent(WAIT)).as("no sub-second wait sent to a truncating server").isEmpty();
  }

  @Test
  void truncatingServerMistakenForHonouringIsCorrectedByAnEarlyTimeout() throws SQLException {
    FakeConnection replica =
        new FakeConnection(
            olderServer().stallingProbes(2).executesAfter(Duration.ofMillis(2300), SOURCE_GTIDS));
    long start = ticker.read();

    boolean executed = await(replica, Duration.ofMillis(2900).toNanos());

    assertThat(executed).as("the rest of the budget is polled after the early timeout").isTrue();
    assertThat(ticker.since(start)).isLessThan(Duration.ofMillis(2900));
  }

  static LongStream seeds() {
    return LongStream.range(0, 10);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void neverSendsAWaitWithoutAPositiveTimeout(long seed) throws SQLException {
    SplittableRandom random = new SplittableRandom(seed);
    long[] edges = {0, 1, 999_999, 1_000_000, 999_999_999, 1_000_000_000, 1_000_000_001};
    for (int i = 0; i < 40; i++) {
      boolean newer = random.nextBoolean();
      long budget =
          i < edges.length ? edges[i] : random.nextLong(Duration.ofSeconds(3).toNanos() + 1);
      FakeMysql server = new FakeMysql(REPLICA, ticker);
      if (!newer) {
        server.truncatingFractions();
      }
      FakeConnection replica = new FakeConnection(server);

      new GtidWaiter(ticker).await(replica.connection(), REPLICA, TOKEN, budget);

      String inCase = (newer ? "newer" : "truncating") + " server, budget " + budget + " ns";
      for (FakeConnection.Sent wait : replica.sent(WAIT)) {
        assertThat(wait.parameter(2)).as(inCase).isInstanceOf(BigDecimal.class);
        BigDecimal timeout = (BigDecimal) wait.parameter(2);
        assertThat(timeout).as(inCase).isPositive();
        assertThat(timeout.movePointRight(9).longValue())
            .as(inCase)
            .isLessThanOrEqualTo(Math.max(budget, Duration.ofMillis(1).toNanos()));
        if (!newer) {
          assertThat(timeout).as(inCase).isGreaterThanOrEqualTo(BigDecimal.ONE);
        }
      }
    }
  }

  private boolean await(FakeConnection replica, long budgetNanos) throws SQLException {
    return waiter.await(replica.connection(), REPLICA, TOKEN, budgetNanos);
  }

  private FakeMysql newerServer() {
    return new FakeMysql(REPLICA, ticker);
  }

  private FakeMysql olderServer() {
    return new FakeMysql(REPLICA, ticker).truncatingFractions();
  }
}
