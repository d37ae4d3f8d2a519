package io.tidemark.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a failure of a source connection or of one of its statements becomes: seen before capture
 * sees it, so that capture judges what the caller will get.
 */
@FunctionalInterface
interface SourceFailures {

  /** Passes every failure on as it is. */
  SourceFailures NONE = (connection, e) -> e;

  /** What to throw for {@code e}, thrown by {@code connection} or a statement of it. */
  SQLException failed(Connection connection, SQLException e);
}
