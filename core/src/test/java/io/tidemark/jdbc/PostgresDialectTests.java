package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
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
