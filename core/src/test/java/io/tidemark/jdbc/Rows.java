package io.tidemark.jdbc;

import io.tidemark.testkit.mysql.MySqlTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/** Rows of a test table {@code t (id INT PRIMARY KEY, v VARCHAR(20))}. */
final class Rows {

  private Rows() {}

  /** A new database of {@code topology} holding the table, once its replicas have it too. */
  static String createTable(MySqlTopology topology, String prefix) {
    String db = topology.createDatabase(prefix);
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY, v VARCHAR(20))");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    return db;
  }

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
