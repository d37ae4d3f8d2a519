package io.tidemark.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.postgres.PostgresNode;
import io.tidemark.testkit.postgres.PostgresTopology;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the PostgreSQL dialect relies on, asserted against the running server, whose version is
 * printed: the same on every major the suite runs (Debian's 15, sid's 18, experimental's 19), or
 * asserted per version.
 */
class PostgresServerFactsIT {

  private static PostgresTopology topology;
  private static int major;

  @BeforeAll
  static void start() {
    topology = PostgresTopology.builder().standbys(1).start();
    major = topology.binaries().major();
    topology.primary().execute("CREATE ROLE plain LOGIN");
    topology.awaitStandbysCaughtUp(Duration.ofSeconds(10));
    System.out.println("PostgresServerFactsIT on " + topology.binaries());
  }

  @AfterAll
  static void stop() {
    if (topology != null) {
      topology.close();
    }
  }

  @Test
  void aServerSideWaitForAPositionComesWithNineteen() throws SQLException {
    assertThat(major).isBetween(15, 19);
    try (Connection c = connect(topology.standby(), "postgres")) {
      if (major < 19) {
        assertThatThrownBy(() -> c.createStatement().execute("WAIT FOR LSN '0/1'"))
            .isInstanceOf(SQLException.class)
            .extracting(e -> ((SQLException) e).getSQLState())
            .isEqualTo("42601");
        return;
      }
      String replayed = String.valueOf(query(c, "SELECT pg_last_wal_replay_lsn()::text"));
      assertThat(query(c, ReplayWait.waitFor(replayed, 50))).isEqualTo("success");
      long begun = System.nanoTime();
      assertThat(query(c, ReplayWait.waitFor("FFFFFFFF/0", 50))).isEqualTo("timeout");
      assertThat(System.nanoTime() - begun).isGreaterThanOrEqualTo(50_000_000L);
    }
    try (Connection c = connect(topology.primary(), "postgres")) {
      assertThat(query(c, ReplayWait.waitFor("0/1", 50))).isEqualTo("not in recovery");
    }
  }

  @Test
  void aPollAnswersWhetherReplayReachedThePositionOrTheStandbyReceivesAnotherTimeline()
      throws SQLException {
    try (Connection c = connect(topology.standby(), "postgres");
        PreparedStatement ps = c.prepareStatement(ReplayWait.POLL)) {
      long timeline = topology.standby().timeline();
      String replayed = String.valueOf(query(c, "SELECT pg_last_wal_replay_lsn()::text"));
      assertThat(polled(ps, timeline, replayed)).containsExactly(true, false);
      assertThat(polled(ps, timeline, "FFFFFFFF/0")).containsExactly(false, false);
      assertThat(polled(ps, timeline + 1, replayed)).containsExactly(false, true);
    }
  }

  private static List<Boolean> polled(PreparedStatement ps, long timeline, String lsn)
      throws SQLException {
    ps.setLong(1, timeline);
    ps.setString(2, lsn);
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return List.of(rs.getBoolean(1), rs.getBoolean(2));
    }
  }

  @Test
  void aRoleWithoutMonitorSeesTheReceiverButNotItsTimeline() throws SQLException {
    try (Connection c = DriverManager.getConnection(topology.standby().jdbcUrl(), "plain", "")) {
      assertThat(query(c, "SELECT pid IS NOT NULL FROM pg_stat_wal_receiver")).isEqualTo("t");
      assertThat(query(c, "SELECT received_tli FROM pg_stat_wal_receiver")).isNull();
      assertThat(query(c, "SELECT status FROM pg_stat_wal_receiver")).isNull();
      assertThat(
              query(c, "SELECT has_function_privilege('pg_catalog.pg_read_file(text)', 'EXECUTE')"))
          .isEqualTo("f");
    }
    try (Connection c = connect(topology.standby(), "postgres")) {
      assertThat(query(c, "SELECT status FROM pg_stat_wal_receiver")).isEqualTo("streaming");
    }
  }

  @Test
  void theWalFileNameOfThePrimaryNamesItsTimelineAndItsPositionsReadBackAsTheyArePrinted()
      throws SQLException {
    try (Connection c = connect(topology.primary(), "postgres")) {
      String file = String.valueOf(query(c, "SELECT pg_walfile_name(pg_current_wal_insert_lsn())"));
      assertThat(Long.parseLong(file.substring(0, 8), 16)).isEqualTo(1);
      String lsn = String.valueOf(query(c, "SELECT pg_current_wal_flush_lsn()::text"));
      String printed = WalPosition.text(WalPosition.parseLsn(lsn));
      assertThat(query(c, "SELECT '" + printed + "'::pg_lsn = '" + lsn + "'::pg_lsn"))
          .isEqualTo("t");
      if (major < 19) {
        assertThat(printed).isEqualTo(lsn);
      } else {
        assertThat(lsn).as("19 pads the low half to 8 digits").matches("[0-9A-F]+/[0-9A-F]{8}");
      }
      assertThat(query(c, "SELECT current_setting('wal_block_size')")).isEqualTo("8192");
      assertThat(query(c, "SELECT unit FROM pg_settings WHERE name = 'wal_segment_size'"))
          .isEqualTo("B");
    }
  }

  private static Connection connect(PostgresNode node, String db) throws SQLException {
    return DriverManager.getConnection(node.jdbcUrl(db), node.user(), node.password());
  }

  private static @Nullable String query(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
