package io.tidemark.internal;

import java.sql.SQLException;

/**
 * A failure named without its message, for text that outlives the call or leaves the process: a
 * context's dirty reason, which a scope store keeps and a log line shows. A driver's message may
 * quote row data: PgJDBC adds the server's {@code Detail}, such as {@code Key (email)=(...) already
 * exists} for a unique violation.
 */
public final class FailureNames {

  private FailureNames() {}

  /**
   * The class of {@code failure} and, from the first SQL failure among it and its causes, the
   * SQLSTATE and the vendor's error code (MySQL's): {@code PSQLException, SQLSTATE 23505}, {@code
   * SQLIntegrityConstraintViolationException, SQLSTATE 23000, error 1062}.
   */
  public static String of(Throwable failure) {
    StringBuilder name = new StringBuilder(simpleName(failure));
    SQLException sql = Causes.find(failure, SQLException.class);
    if (sql != null) {
      if (sql != failure) {
        name.append(" caused by ").append(simpleName(sql));
      }
      if (sql.getSQLState() != null) {
        name.append(", SQLSTATE ").append(sql.getSQLState());
      }
      if (sql.getErrorCode() != 0) {
        name.append(", error ").append(sql.getErrorCode());
      }
    }
    return name.toString();
  }

  private static String simpleName(Throwable failure) {
    String simple = failure.getClass().getSimpleName();
    return simple.isEmpty() ? failure.getClass().getName() : simple;
  }
}
