package io.tidemark.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.StandIns;
import io.tidemark.internal.ReplicaRefusedException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which failures of a read's query on a hot standby the source can serve instead. */
class PostgresDialectTests {

  @Test
  void aConflictWithRecoveryIsTheStandbysRefusalWhateverItsSqlStateInClass40() {
    assertThat(refused("ERROR: canceling statement due to conflict with recovery", "40001"))
        .contains("40001");
    assertThat(refused("ERROR: canceling statement due to conflict with recovery", "40P01"))
        .contains("40P01");
    assertThat(
            refused("FEHLER: storniere Anfrage wegen Konflikt mit der Wiederherstellung", "40P01"))
        .as("the SQLSTATE tells, in any language")
        .isNotNull();
  }

  @Test
  void serializableOnAHotStandbyIsTheStandbysRefusal() {
    assertThat(
            refused(
                "ERROR: cannot use serializable mode in a hot standby\n"
                    + "  Detail: \"default_transaction_isolation\" is set to \"serializable\".",
                "0A000"))
        .contains("SERIALIZABLE")
        .contains("0A000");
  }

  @Test
  void anotherFeatureTheServerLacksIsTheReadsOwnFailure() {
    assertThat(refused("ERROR: FOR UPDATE is not allowed with aggregate functions", "0A000"))
        .isNull();
    assertThat(refused("ERROR: relation \"orders\" does not exist", "42P01")).isNull();
    assertThat(PostgresDialect.INSTANCE.refusedOnReplica(new SQLException("no state"))).isNull();
  }

  /**
   * Set through JDBC, SERIALIZABLE never reaches the standby: refused before it is sent, with a
   * failure the read path takes for the standby's refusal. Other levels go through.
   */
  @Test
  void aStandbysConnectionRefusesSerializableBeforeSendingIt() throws SQLException {
    List<String> sent = new ArrayList<>();
    Connection standby =
        StandIns.of(
            Connection.class,
            (proxy, method, args) -> {
              sent.add(method.getName() + (args == null ? "" : Arrays.toString(args)));
              return null;
            });
    Connection forQuery = PostgresDialect.INSTANCE.forReplicaQuery(standby);

    forQuery.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    assertThatThrownBy(() -> forQuery.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE))
        .isInstanceOfSatisfying(
            ReplicaRefusedException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("0A000");
              assertThat(PostgresDialect.INSTANCE.refusedOnReplica(e)).contains("SERIALIZABLE");
            });
    assertThat(sent)
        .containsExactly("setTransactionIsolation[" + Connection.TRANSACTION_REPEATABLE_READ + "]");
    assertThat(MySqlDialect.INSTANCE.forReplicaQuery(standby)).isSameAs(standby);
  }

  @Test
  void mySqlTellsARolledBackReadTheSameWay() {
    assertThat(
            MySqlDialect.INSTANCE.refusedOnReplica(
                new SQLTransactionRollbackException("Deadlock found", "40001", 1213)))
        .contains("40001");
    assertThat(
            MySqlDialect.INSTANCE.refusedOnReplica(
                new SQLException("Lock wait timeout exceeded", "HY000", 1205)))
        .isNull();
  }

  private static String refused(String message, String state) {
    return PostgresDialect.INSTANCE.refusedOnReplica(new SQLException(message, state));
  }
}
