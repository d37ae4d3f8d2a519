package io.tidemark.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * HikariCP pools whose connections a read takes on its own thread, within what is left of its
 * budget. A read must not wait longer than its deadline for a connection, and a pool validating an
 * idle connection to a frozen server blocks for a second or more; so a connection of any other pool
 * is asked for on a helper thread, which costs two thread wake-ups per read. In a pool built here
 * the validation of a connection taken by a read ends when the read's time for it does.
 *
 * <pre>{@code
 * HikariConfig config = new HikariConfig();
 * config.setJdbcUrl("jdbc:mysql://replica-1:3306/shop");
 * ConsistentReader reader = ConsistentReader.builder(ReplicaPools.create(config), source).build();
 * }</pre>
 */
public final class ReplicaPools {

  private ReplicaPools() {}

  /**
   * A started pool configured by {@code config}, which must name its server by {@code jdbcUrl} or a
   * {@code DataSource} and leave validation to the driver ({@code isValid}).
   *
   * @throws IllegalArgumentException when {@code config} sets a {@code connectionTestQuery}, whose
   *     time the pool bounds only by its own validation timeout, or names its data source by class
   *     or JNDI name
   */
  public static HikariDataSource create(HikariConfig config) {
    return DeadlineBoundPool.create(config);
  }
}
