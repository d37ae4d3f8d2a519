package io.tidemark.testkit.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A MariaDB source and two replicas as local processes: replication by GTID with the positions
 * MariaDB writes ({@code domain-server-sequence}), the bounded wait {@code MASTER_GTID_WAIT}, and
 * the applier and receiver faults. On Debian's 10.11 and on 11.8 from {@code bin/mariadb-11.8}
 * ({@code TIDEMARK_MARIADBD}), whose facts differ where noted.
 */
class MariaDbTopologyIT {

  /**
   * {@code session_track_system_variables} by default, per series: 11.8 adds {@code redirect_url};
   * neither tracks {@code last_gtid}.
   */
  private static final Map<String, String> TRACKED_BY_DEFAULT =
      Map.of(
          "10.11",
          "autocommit,character_set_client,character_set_connection,character_set_results,time_zone",
          "11.8",
          "autocommit,character_set_client,character_set_connection,character_set_results,"
              + "redirect_url,time_zone");

  private static MariaDbTopology topology;

  @BeforeAll
  static void start() {
    topology = MariaDbTopology.builder().replicas(2).start();
  }

  @AfterAll
  static void stop() {
    topology.close();
  }

  @Test
  void everyServerRunsTheBinariesVersionWithStrictGtidsAndTheReplicasReadOnly() {
    MariaDbBinaries binaries = topology.binaries();
    for (MariaDbNode node : topology.nodes()) {
      // "10.11.19-MariaDB-0+deb12u1-log", "11.8.9-MariaDB-0+deb13u1 from Debian-log"
      assertThat(node.version()).startsWith(binaries.series() + ".").startsWith(binaries.version());
      assertThat(node.queryString("SELECT @@GLOBAL.gtid_strict_mode")).isEqualTo("1");
      // Its own messages and character sets, not those of another MariaDB on the machine.
      assertThat(node.queryString("SELECT @@GLOBAL.lc_messages_dir"))
          .isEqualTo(binaries.share().toString());
      assertThat(node.queryString("SELECT @@GLOBAL.character_sets_dir"))
          .startsWith(binaries.share().toString());
    }
    assertThat(topology.source().queryString("SELECT @@GLOBAL.read_only")).isEqualTo("0");
    for (MariaDbNode replica : topology.replicas()) {
      assertThat(replica.queryString("SELECT @@GLOBAL.read_only")).isEqualTo("1");
      assertThat(replica.replicating()).isTrue();
    }
  }

  /**
   * What a read path on MariaDB would start from, read from the server: a session reports no GTID
   * unless it asks to ({@code last_gtid} is not tracked by default on 10.11 nor 11.8),
   * {@code @@last_gtid} names the session's own last write, and {@code gtid_strict_mode} is off
   * unless set (the topology sets it).
   */
  @Test
  void sessionTrackingLeavesTheGtidOutByDefaultAndStrictModeIsOffUnlessSet() throws SQLException {
    MariaDbNode source = topology.source();
    String series = topology.binaries().series();
    String tracked = defaultValue(source, "SESSION_TRACK_SYSTEM_VARIABLES");

    assertThat(TRACKED_BY_DEFAULT).as("a series these facts are known for").containsKey(series);
    assertThat(tracked)
        .as("session_track_system_variables by default on %s", series)
        .isEqualTo(TRACKED_BY_DEFAULT.get(series));
    assertThat(List.of(tracked.split(","))).doesNotContain("last_gtid");
    assertThat(source.queryString("SELECT @@GLOBAL.session_track_system_variables"))
        .isEqualTo(tracked);
    assertThat(defaultValue(source, "GTID_STRICT_MODE")).isEqualTo("OFF");

    String db = topology.createDatabase("lastgtid");
    try (Connection c =
            DriverManager.getConnection(source.jdbcUrl(), source.user(), source.password());
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
      s.execute("INSERT INTO `" + db + "`.t VALUES (1)");
      try (ResultSet rs = s.executeQuery("SELECT @@SESSION.last_gtid")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).matches("0-1-\\d+").isEqualTo(source.gtidBinlogPos());
      }
    }
  }

  @Test
  void aWriteOnTheSourceReachesEveryReplicaAtTheSourcesPosition() {
    String db = topology.createDatabase("reach");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    insertRow(db);
    String position = topology.source().gtidBinlogPos();

    assertThat(position).matches("0-1-\\d+");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    for (MariaDbNode replica : topology.replicas()) {
      assertThat(replica.gtidCurrentPos()).isEqualTo(position);
      assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("1");
    }
  }

  @Test
  void aPausedApplierHoldsAWriteBackUntilItResumesAndTheWaitSaysSo() {
    String db = replicatedTable("paused");
    MariaDbNode replica = topology.replica();
    replica.pauseApplier();
    try {
      insertRow(db);
      String position = topology.source().gtidBinlogPos();

      assertThat(replica.awaitGtid(position, Duration.ofMillis(300))).isFalse();
      assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("0");
    } finally {
      replica.resumeApplier();
    }
    assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofSeconds(10)))
        .isTrue();
    assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("1");
  }

  @Test
  void aStoppedReceiverGetsNothingNewUntilItStartsAgain() {
    String db = replicatedTable("receiver");
    MariaDbNode replica = topology.replicas().get(1);
    replica.stopReceiver();
    try {
      insertRow(db);

      assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofMillis(300)))
          .isFalse();
    } finally {
      replica.startReceiver();
    }
    assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofSeconds(10)))
        .isTrue();
  }

  @Test
  void aKilledReplicaRestartsReadOnlyAndCatchesUp() {
    String db = topology.createDatabase("restart");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    MariaDbNode replica = topology.replica();
    replica.kill();
    assertThat(replica.isRunning()).isFalse();
    insertRow(db);

    replica.restart();

    assertThat(replica.queryString("SELECT @@GLOBAL.read_only")).isEqualTo("1");
    replica.execute("START SLAVE");
    assertThat(replica.awaitGtid(topology.source().gtidBinlogPos(), Duration.ofSeconds(10)))
        .isTrue();
    assertThat(replica.queryString("SELECT COUNT(*) FROM `" + db + "`.t")).isEqualTo("1");
  }

  /** A new database named after {@code prefix} whose table {@code t} every replica has. */
  private String replicatedTable(String prefix) {
    String db = topology.createDatabase(prefix);
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    return db;
  }

  /** Inserts row 1 into table {@code t} of {@code db} on the source. */
  private void insertRow(String db) {
    topology.source().execute("INSERT INTO `" + db + "`.t VALUES (1)");
  }

  /** The compiled-in default of a global variable, whatever the server was started with. */
  private static String defaultValue(MariaDbNode node, String variable) {
    String value =
        node.queryString(
            "SELECT DEFAULT_VALUE FROM information_schema.SYSTEM_VARIABLES WHERE VARIABLE_NAME = '"
                + variable
                + "'");
    assertThat(value).as("the default of %s", variable).isNotNull();
    return value;
  }
}
