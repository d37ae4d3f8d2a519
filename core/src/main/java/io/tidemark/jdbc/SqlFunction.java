package io.tidemark.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The read a {@link ConsistentReader} runs on the connection it chose.
 *
 * @param <T> what the read returns
 */
@FunctionalInterface
public interface SqlFunction<T> {
  T apply(Connection connection) throws SQLException;
}
