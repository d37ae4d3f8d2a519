package io.tidemark.jdbc;

import io.tidemark.internal.JdbcProxies;
import io.tidemark.internal.ReplicaRefusedException;
import io.tidemark.internal.SqlText;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.Statement;

/**
 * Statements a read's replica connection refuses before they are sent, so that the read runs on the
 * source instead: a locking read or an advisory lock (a lock taken on a replica protects nothing
 * the source will write), a procedure call, a temporary table or a session variable (state a
 * replica connection would carry into the next read), and a statement that opens with the {@code /*
 * tidemark:source *}{@code /} hint. Where Tidemark let the session run several statements of one
 * text (to send a wait with its query) and the driver was not configured to, a text of several is
 * refused too: an injection that extends a query must fail as it would without Tidemark, and it
 * does on the source, whose sessions run one statement per text. The text is matched as sent: a
 * match inside a string literal only costs a source read. A write needs no rule: the read's
 * read-only session refuses it on either node, as it would without Tidemark.
 */
final class SourceOnlyStatements {

  private SourceOnlyStatements() {}

  /**
   * {@code connection}, refusing source-only statements before they reach the replica, and texts of
   * several statements when {@code oneStatementPerText}.
   */
  static Connection guard(Connection connection, boolean oneStatementPerText) {
    return JdbcProxies.proxy(
        Connection.class,
        (proxy, method, args) -> {
          String name = method.getName();
          if ((name.equals("prepareStatement") || name.equals("prepareCall"))
              && args != null
              && args[0] instanceof String sql) {
            check(sql, oneStatementPerText);
          }
          Object result = JdbcProxies.handleCommon(proxy, connection, "Tidemark", method, args);
          return name.equals("createStatement") && result instanceof Statement statement
              ? guard(statement, oneStatementPerText)
              : result;
        });
  }

  private static Statement guard(Statement statement, boolean oneStatementPerText) {
    return JdbcProxies.proxy(
        Statement.class,
        (proxy, method, args) -> {
          if (sends(method) && args != null && args.length > 0 && args[0] instanceof String sql) {
            check(sql, oneStatementPerText);
          }
          return JdbcProxies.handleCommon(proxy, statement, "Tidemark", method, args);
        });
  }

  private static boolean sends(Method method) {
    String name = method.getName();
    return name.startsWith("execute") || name.equals("addBatch");
  }

  private static void check(String sql, boolean oneStatementPerText)
      throws ReplicaRefusedException {
    if (oneStatementPerText && SqlText.severalStatements(sql)) {
      throw ReplicaRefusedException.sourceOnly(
          "refused on the replica, as a text of several statements");
    }
    String why = SqlText.sourceOnly(sql);
    if (why != null) {
      throw ReplicaRefusedException.sourceOnly("refused on the replica, as " + why);
    }
  }
}
