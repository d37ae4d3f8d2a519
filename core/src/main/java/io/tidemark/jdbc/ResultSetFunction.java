package io.tidemark.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What a {@link ConsistentReader#query query} makes of its statement's rows, from a result set
 * positioned before the first.
 *
 * @param <T> what the read returns
 */
@FunctionalInterface
public interface ResultSetFunction<T> {
  T apply(ResultSet rows) throws SQLException;
}
