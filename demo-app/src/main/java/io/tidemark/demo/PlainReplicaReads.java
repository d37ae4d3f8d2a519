package io.tidemark.demo;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a service without Tidemark does: read the replica at once. The page and the scenario use it
 * when Tidemark is switched off, to show the stale read.
 */
final class PlainReplicaReads implements AutoCloseable {

  private final HikariDataSource pool;
  private final JdbcTemplate replica;

  PlainReplicaReads(HikariDataSource pool) {
    this.pool = pool;
    this.replica = new JdbcTemplate(pool);
  }

  Optional<Order> find(long id) {
    return replica.query(OrderReads.BY_ID, OrderReads.ORDER, id).stream().findFirst();
  }

  @Override
  public void close() {
    pool.close();
  }
}
