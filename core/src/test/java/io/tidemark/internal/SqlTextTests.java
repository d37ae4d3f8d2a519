package io.tidemark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlTextTests {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM orders WHERE id = ? FOR UPDATE",
        "select * from orders where id = ? for update skip locked",
        "SELECT * FROM orders WHERE id = ?\nFOR\tUPDATE NOWAIT",
        "SELECT * FROM orders FOR SHARE",
        "SELECT * FROM orders FOR NO KEY UPDATE",
        "SELECT * FROM orders FOR KEY SHARE",
        "SELECT * FROM orders LOCK IN SHARE MODE",
        "SELECT GET_LOCK('orders', 1)",
        "select release_lock('orders')",
        "SELECT pg_advisory_lock(42)",
        "SELECT pg_try_advisory_xact_lock(42)",
        "CALL create_order(?)",
        "{call create_order(?)}",
        "{ ? = call next_order_no() }",
        "SET @last = 1",
        "set search_path to shop",
        "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE",
        "DO 1",
        "CREATE TEMPORARY TABLE picks (id BIGINT)",
        "SELECT id INTO TEMP TABLE picks FROM orders",
        "/* tidemark:source */ SELECT * FROM orders",
        "  /*TIDEMARK:SOURCE*/SELECT * FROM orders",
      })
  void runsOnTheSourceOnly(String sql) {
    assertThat(SqlText.sourceOnly(sql)).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM orders WHERE id = ?",
        "select o.id, o.customer from orders o join customers c on c.id = o.customer_id",
        "SELECT * FROM settings WHERE name = 'offset'",
        "SELECT * FROM orders WHERE customer = ? /* tidemark:source */",
        "SELECT updated_at, shared FROM orders",
        "SELECT * FROM orders ORDER BY id LIMIT 10",
        "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
        "set local statement_timeout = 500",
      })
  void runsOnAReplica(String sql) {
    assertThat(SqlText.sourceOnly(sql)).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM orders WHERE id = ?",
        "  select count(*) from orders",
        "/* a report */ SELECT id FROM orders",
        "-- a report\nSELECT id FROM orders",
        "(SELECT id FROM orders) UNION (SELECT id FROM archive)",
        "WITH recent AS (SELECT * FROM orders) SELECT * FROM recent",
        "SELECT next_order_no()",
      })
  void aPlainQuery(String sql) {
    assertThat(SqlText.plainQuery(sql)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "UPDATE orders SET status = 'PAID'",
        "INSERT INTO orders VALUES (1)",
        "SELECT id INTO @last FROM orders",
        "SELECT * INTO archive FROM orders",
        "SELECT * FROM orders INTO OUTFILE '/tmp/orders'",
        "WITH old AS (SELECT id FROM orders) DELETE FROM orders WHERE id IN (SELECT id FROM old)",
        "WITH moved AS (DELETE FROM orders RETURNING *) SELECT * FROM moved",
        "SELECT * FROM orders FOR UPDATE",
        "CALL report()",
        "SHOW TABLES",
        "/* tidemark:source */ SELECT * FROM orders",
      })
  void noPlainQuery(String sql) {
    assertThat(SqlText.plainQuery(sql)).isFalse();
  }

  @Test
  void aWriteAReadOnlySessionRefusedIsToldByItsState() {
    SQLException mysql =
        new SQLException("Cannot execute statement in a READ ONLY transaction.", "25006", 1792);
    SQLException superReadOnly =
        new SQLException("running with the --super-read-only option", "HY000", 1290);

    assertThat(SqlText.refusedAsWrite(new RuntimeException("translated", mysql))).isTrue();
    assertThat(SqlText.refusedAsWrite(superReadOnly)).isTrue();
    assertThat(SqlText.refusedAsWrite(new SQLException("no such table", "42S02", 1146))).isFalse();
  }

  @Test
  void aSemicolonWithMoreThanBlanksAfterItMayStartAnotherStatement() {
    assertThat(SqlText.severalStatements("SELECT 1; SET @x = 1")).isTrue();
    assertThat(SqlText.severalStatements("SELECT 1;SELECT 2;")).isTrue();
    assertThat(SqlText.severalStatements("SELECT ';'")).as("read as sent").isTrue();
    assertThat(SqlText.severalStatements("SELECT 1")).isFalse();
    assertThat(SqlText.severalStatements("SELECT 1;")).isFalse();
    assertThat(SqlText.severalStatements("SELECT 1 ; ;\n ")).isFalse();
    assertThat(SqlText.severalStatements(";")).isFalse();
  }

  @Test
  void aHintThatOpensTheStatementIsTakenAway() {
    assertThat(SqlText.withoutHint("/* tidemark:source */ SELECT 1")).isEqualTo(" SELECT 1");
    assertThat(SqlText.withoutHint("\n  /*TIDEMARK:SOURCE*/SELECT 1")).isEqualTo("SELECT 1");
    assertThat(SqlText.withoutHint("/* tidemark:source */")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT 1",
        "",
        "   ",
        "/* a comment */ SELECT 1",
        "/* tidemark:source",
        "SELECT '/* tidemark:source */' FROM dual",
        "SELECT 1 /* tidemark:source */",
        "-- tidemark:source\nSELECT 1",
      })
  void anyOtherTextIsSentAsItIs(String sql) {
    assertThat(SqlText.withoutHint(sql)).isSameAs(sql);
  }
}
