package io.tidemark.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/** Rows of a test table {@code t (id INT PRIMARY KEY, v VARCHAR(20))}. */
final class Rows {

  private Rows() {}

  /** Inserts a row through {@code source}, so a bound context captures its commit. */
  static void insert(DataSource source, int id, String v) throws SQLException {
    try (Connection c = source.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
      ps.setInt(1, id);
      ps.setString(2, v);
      ps.executeUpdate();
    }
  }

  /** The row's {@code v}, or {@code null} when the connection's server has no such row. */
  static @Nullable String value(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
