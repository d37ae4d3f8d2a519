package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import org.junit.jupiter.api.Test;

class ReplicaPoolsTests {

  @Test
  void refusesATestQueryWhoseTimeOnlyThePoolBounds() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:mysql://127.0.0.1:1/none");
    config.setConnectionTestQuery("SELECT 1");

    assertThatThrownBy(() -> ReplicaPools.create(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("connectionTestQuery (SELECT 1)");
  }

  @Test
  void refusesADataSourceNamedByClassOrJndi() {
    HikariConfig byClass = new HikariConfig();
    byClass.setDataSourceClassName("com.mysql.cj.jdbc.MysqlDataSource");
    HikariConfig byJndi = new HikariConfig();
    byJndi.setDataSourceJNDI("java:comp/env/jdbc/replica");

    assertThatThrownBy(() -> ReplicaPools.create(byClass))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbcUrl or a DataSource");
    assertThatThrownBy(() -> ReplicaPools.create(byJndi))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbcUrl or a DataSource");
  }
}
