package io.tidemark.spring.postgres;

import io.tidemark.testkit.postgres.PostgresNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The {@code orders} table of the tests' applications, on one PostgreSQL server. */
public final class PostgresOrders {

  private PostgresOrders() {}

  /**
   * Whether order {@code id} is in {@code db} on {@code node}, asked on it directly: a standby that
   * has not replayed the insert answers {@code false}.
   */
  public static boolean has(PostgresNode node, String db, long id) {
    try (Connection c =
            DriverManager.getConnection(node.jdbcUrl(db), node.user(), node.password());
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery("SELECT count(*) FROM orders WHERE id = " + id)) {
      rows.next();
      return rows.getLong(1) > 0;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
