package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What {@code WAIT_FOR_EXECUTED_GTID_SET} does with each kind of argument on the real server: the
 * facts the read path is built around. Waits that would last forever are cut by a query timeout.
 */
@ExtendWith(TestkitExtension.class)
class ServerFactsIT {

  private MySqlTopology topology;
  private String unreachable;

  @BeforeEach
  void unreachableSetOfTheReplicasOwnUuid(MySqlTopology topology) {
    this.topology = topology;
    unreachable = topology.replica().serverUuid() + ":" + GtidSet.MAX_GNO;
  }

  @Test
  void emptySetIsExecutedAtOnce() throws SQLException {
    assertThat(waitResult("", BigDecimal.ONE)).isZero();
  }

  @Test
  void nullSetAndNegativeTimeoutAreErrors() {
    assertThatThrownBy(() -> waitResult(null, BigDecimal.ONE)).isInstanceOf(SQLException.class);
    assertThatThrownBy(() -> waitResult(unreachable, BigDecimal.valueOf(-1)))
        .isInstanceOf(SQLException.class);
  }

  @Test
  void zeroTimeoutWaitsForever() {
    assertWaitsUntilTheQueryTimeout(BigDecimal.ZERO);
  }

  /**
   * MySQL 8.0.15 reads a NULL timeout as "no timeout" and waits forever; MySQL 9.x refuses it as an
   * incorrect argument. Tidemark never sends either: every wait carries a positive timeout.
   */
  @Test
  void nullTimeoutWaitsForeverOn8_0AndIsAnErrorOn9() throws SQLException {
    ServerVersion version = topology.replica().version();
    if (version.atLeast(9, 0, 0)) {
      assertThatThrownBy(() -> waitResult(unreachable, null))
          .as("MySQL %s refuses a NULL timeout", version)
          .isInstanceOf(SQLException.class)
          .isNotInstanceOf(SQLTimeoutException.class)
          .hasMessageContaining("Incorrect arguments to WAIT_FOR_EXECUTED_GTID_SET");
    } else {
      assertThat(version).as("a server this fact is known for").isEqualTo(V8_0_15);
      assertWaitsUntilTheQueryTimeout(null);
    }
  }

  /** Truncated to whole seconds on MySQL 8.0.15 (0.3 s returns at once), honoured on 9.x. */
  @Test
  void fractionalTimeoutsAreTruncatedOn8_0AndHonouredOn9() throws SQLException {
    ServerVersion version = topology.replica().version();
    Duration shortWait = timed(unreachable, new BigDecimal("0.3"));
    Duration longWait = timed(unreachable, new BigDecimal("1.5"));
    if (version.atLeast(9, 0, 0)) {
      assertThat(shortWait).as("0.3 s on %s", version).isBetween(ms(290), ms(700));
      assertThat(longWait).as("1.5 s on %s", version).isBetween(ms(1450), ms(1900));
    } else {
      assertThat(version).as("a server this fact is known for").isEqualTo(V8_0_15);
      assertThat(shortWait).as("0.3 s on %s", version).isLessThan(ms(150));
      assertThat(longWait).as("1.5 s on %s", version).isBetween(ms(950), ms(1400));
    }
  }

  /**
   * The statement timer ends a wait at its milliseconds on every server, fractional timeouts
   * honoured or not: error 3024, and the connection goes on as before. The read path bounds its
   * waits this way.
   */
  @Test
  void maxExecutionTimeEndsAWaitAtItsMilliseconds() throws SQLException {
    try (Connection c = topology.replica().openConnection()) {
      assertThat(single(c, "SELECT @@have_statement_timeout")).isEqualTo("YES");
      long started = System.nanoTime();
      assertThatThrownBy(() -> hintedWait(c, unreachable, 200, 2))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(3024));
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(ms(195), ms(600));
      assertThat(single(c, "SELECT 1")).isEqualTo("1");
      String executed = single(c, "SELECT @@GLOBAL.gtid_executed");
      started = System.nanoTime();
      assertThat(hintedWait(c, executed, 200, 2)).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(ms(150));
      // Past its milliseconds the timer is gone: the wait's own timeout ends the next one.
      started = System.nanoTime();
      assertThat(waitOn(c, unreachable, BigDecimal.ONE)).isEqualTo(1);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(ms(950), ms(1500));
    }
  }

  private static int hintedWait(Connection c, String gtids, long millis, int seconds)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT /*+ MAX_EXECUTION_TIME(" + millis + ") */ WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
      ps.setString(1, gtids);
      ps.setInt(2, seconds);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static String single(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static final ServerVersion V8_0_15 = new ServerVersion(8, 0, 15);

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  private void assertWaitsUntilTheQueryTimeout(@Nullable BigDecimal forever) {
    long started = System.nanoTime();
    assertThatThrownBy(() -> waitResult(unreachable, forever))
        .as("timeout %s is cut only by the query timeout", forever)
        .isInstanceOf(SQLTimeoutException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(ms(900));
  }

  private Duration timed(String gtids, BigDecimal timeout) throws SQLException {
    long started = System.nanoTime();
    assertThat(waitResult(gtids, timeout, 3)).isEqualTo(1);
    return Duration.ofNanos(System.nanoTime() - started);
  }

  private int waitResult(@Nullable String gtids, @Nullable BigDecimal timeout) throws SQLException {
    return waitResult(gtids, timeout, 1);
  }

  private int waitResult(
      @Nullable String gtids, @Nullable BigDecimal timeout, int queryTimeoutSeconds)
      throws SQLException {
    try (Connection c = topology.replica().openConnection()) {
      return waitOn(c, gtids, timeout, queryTimeoutSeconds);
    }
  }

  private static int waitOn(Connection c, @Nullable String gtids, BigDecimal timeout)
      throws SQLException {
    return waitOn(c, gtids, timeout, 3);
  }

  private static int waitOn(
      Connection c, @Nullable String gtids, @Nullable BigDecimal timeout, int queryTimeoutSeconds)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
      ps.setString(1, gtids);
      ps.setBigDecimal(2, timeout);
      ps.setQueryTimeout(queryTimeoutSeconds);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
