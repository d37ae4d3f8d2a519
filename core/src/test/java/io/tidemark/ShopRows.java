package io.tidemark;

import io.tidemark.testkit.mysql.MySqlNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Rows of {@code shop.t (id INT, v TEXT)}, the table of tests that start a topology of their own,
 * named in full so that connections to no database in particular reach it. Public for the tests of
 * the jdbc and topology packages alike.
 */
public final class ShopRows {

  private ShopRows() {}

  /** Creates the database and its table on {@code source}. */
  public static void create(MySqlNode source) {
    source.execute("CREATE DATABASE shop", "CREATE TABLE shop.t (id INT, v TEXT)");
  }

  /** Inserts a row through {@code source}, so a bound context captures its commit. */
  public static void insert(DataSource source, int id, String v) throws SQLException {
    try (Connection c = source.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO shop.t VALUES (?, ?)")) {
      ps.setInt(1, id);
      ps.setString(2, v);
      ps.executeUpdate();
    }
  }

  /** The row's {@code v}, or {@code null} when the connection's server has no such row. */
  public static @Nullable String value(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM shop.t WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
