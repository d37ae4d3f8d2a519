package io.tidemark.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import org.jspecify.annotations.Nullable;

/**
 * What a failure is, as frameworks and drivers wrap it: its causes, whether the connection rather
 * than the statement failed, and its name without its message.
 */
public final class Failures {

  // A chain longer than this is a cycle, or wrapping nobody reads to the end of.
  private static final int MAX_DEPTH = 32;

  private Failures() {}

  /** The first of {@code failure} and its causes that is a {@code type}, or {@code null}. */
  public static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
    int depth = 0;
    for (Throwable cause = failure;
        cause != null && depth < MAX_DEPTH;
        cause = cause.getCause(), depth++) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
    }
    return null;
  }

  /** The last of {@code failure}'s causes, or {@code failure} itself. */
  public static Throwable innermost(Throwable failure) {
    Throwable last = failure;
    int depth = 0;
    for (Throwable cause = failure;
        cause != null && depth < MAX_DEPTH;
        cause = cause.getCause(), depth++) {
      last = cause;
    }
    return last;
  }

  /**
   * Whether {@code e} reports a lost or refused connection: SQLState class 08 or its types, or a
   * session the server ended while it ran ({@code 57P01} when PostgreSQL is shut down, its
   * postmaster dies or an administrator terminates the session; {@code 57P02} when it crashes).
   */
  public static boolean isConnectionFailure(SQLException e) {
    String state = e.getSQLState();
    return e instanceof SQLNonTransientConnectionException
        || e instanceof SQLTransientConnectionException
        || (state != null
            && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")));
  }

  /** Whether {@code e} or one of its causes is a connection failure. */
  public static boolean causedByConnectionFailure(Throwable e) {
    int depth = 0;
    for (Throwable cause = e;
        cause != null && depth < MAX_DEPTH;
        cause = cause.getCause(), depth++) {
      if (cause instanceof SQLException sql && isConnectionFailure(sql)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Aborts {@code connection} when {@code e} is a connection failure, so that its pool does not
   * hand it out again.
   */
  public static void abortIfBroken(Connection connection, SQLException e) {
    if (isConnectionFailure(e)) {
      try {
        connection.abort(Runnable::run);
      } catch (SQLException | RuntimeException ignored) {
        // Already unusable; closing it in the caller's finally is all that is left to do.
      }
    }
  }

  /**
   * A failure named without its message, for text that outlives the call or leaves the process: a
   * context's dirty reason, which a scope store keeps and a log line shows. A driver's message may
   * quote row data: PgJDBC adds the server's {@code Detail}, such as {@code Key (email)=(...)
   * already exists} for a unique violation. The class of {@code failure} and, from the first SQL
   * failure among it and its causes, the SQLSTATE and the vendor's error code (MySQL's): {@code
   * PSQLException, SQLSTATE 23505}, {@code SQLIntegrityConstraintViolationException, SQLSTATE
   * 23000, error 1062}.
   */
  public static String nameOf(Throwable failure) {
    StringBuilder name = new StringBuilder(simpleName(failure));
    SQLException sql = find(failure, SQLException.class);
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
