package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.TestkitExtension;
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
  void zeroAndNullTimeoutsWaitForever() {
    for (BigDecimal forever : new BigDecimal[] {BigDecimal.ZERO, null}) {
      long started = System.nanoTime();
      assertThatThrownBy(() -> waitResult(unreachable, forever))
          .as("timeout %s is cut only by the query timeout", forever)
          .isInstanceOf(SQLTimeoutException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }
  }

  @Test
  void fractionalTimeoutsAreEitherTruncatedOrHonoured() throws SQLException {
    Duration shortWait = timed(unreachable, new BigDecimal("0.3"));
    Duration longWait = timed(unreachable, new BigDecimal("1.5"));
    boolean truncates = shortWait.compareTo(Duration.ofMillis(150)) < 0;
    if (truncates) {
      assertThat(longWait).isBetween(Duration.ofMillis(950), Duration.ofMillis(1400));
    } else {
      assertThat(shortWait).isGreaterThanOrEqualTo(Duration.ofMillis(290));
      assertThat(longWait).isGreaterThanOrEqualTo(Duration.ofMillis(1450));
    }
    if (topology.binaries().version().equals(new ServerVersion(8, 0, 15))) {
      assertThat(truncates).as("MySQL 8.0.15 truncates fractional timeouts").isTrue();
    }
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
    try (Connection c = topology.replica().openConnection();
        PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
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
