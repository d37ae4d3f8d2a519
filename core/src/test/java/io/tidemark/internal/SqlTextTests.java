package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SourceOnlyStatementsTests {

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
        "DO 1",
        "CREATE TEMPORARY TABLE picks (id BIGINT)",
        "SELECT id INTO TEMP TABLE picks FROM orders",
        "/* tidemark:source */ SELECT * FROM orders",
        "  /*TIDEMARK:SOURCE*/SELECT * FROM orders",
      })
  void runsOnTheSourceOnly(String sql) {
    assertThat(SourceOnlyStatements.why(sql)).isNotNull();
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
      })
  void runsOnAReplica(String sql) {
    assertThat(SourceOnlyStatements.why(sql)).isNull();
  }
}
