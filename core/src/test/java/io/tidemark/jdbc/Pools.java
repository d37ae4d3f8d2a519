package io.tidemark.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.testkit.mysql.MySqlNode;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** HikariCP pools on testkit nodes, as an application would configure them. */
final class Pools {

  private Pools() {}

  /** A pool whose connections report each commit's GTID (Connector/J session tracking). */
  static HikariDataSource tracking(MySqlNode node, String database, int size) {
    return pool(node, database, size, "&trackSessionState=true", null);
  }

  /** A tracking pool whose connections start with {@code initSql}, outside any capture. */
  static HikariDataSource tracking(MySqlNode node, String database, int size, String initSql) {
    return pool(node, database, size, "&trackSessionState=true", initSql);
  }

  static HikariDataSource plain(MySqlNode node, String database, int size) {
    return new HikariDataSource(config(node, database, size, "", null));
  }

  /** A pool of {@link ReplicaPools}, whose check-outs a read bounds on its own thread. */
  static HikariDataSource replica(MySqlNode node, String database, int size) {
    return replica(node, database, size, "");
  }

  /** A pool of {@link ReplicaPools} whose URL ends in {@code options} ({@code &name=value...}). */
  static HikariDataSource replica(MySqlNode node, String database, int size, String options) {
    return ReplicaPools.create(config(node, database, size, options, null));
  }

  private static HikariDataSource pool(
      MySqlNode node, String database, int size, String options, @Nullable String initSql) {
    return new HikariDataSource(config(node, database, size, options, initSql));
  }

  private static HikariConfig config(
      MySqlNode node, String database, int size, String options, @Nullable String initSql) {
    HikariConfig config = new HikariConfig();
    config.setConnectionInitSql(initSql);
    config.setJdbcUrl(node.jdbcUrl(database) + options);
    config.setUsername(node.user());
    config.setPassword(node.password());
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(5_000);
    config.setPoolName(node.name() + "-" + database);
    return config;
  }

  /** The most connections {@code pool} had checked out, looked at every 10 ms for {@code time}. */
  static int mostInUse(HikariDataSource pool, Duration time) throws InterruptedException {
    int most = 0;
    for (long looks = time.toMillis() / 10; looks > 0; looks--) {
      most = Math.max(most, pool.getHikariPoolMXBean().getActiveConnections());
      Thread.sleep(10);
    }
    return most;
  }
}
