package io.tidemark.internal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a statement's text tells of where it may run: read as sent, without parsing. A match inside
 * a string literal only sends a read to the source, never a write to a replica.
 */
public final class SqlText {

  private static final Pattern HINT =
      Pattern.compile("\\A\\s*/\\*\\s*tidemark:source\\s*\\*/", Pattern.CASE_INSENSITIVE);

  private static final Pattern SOURCE_ONLY =
      Pattern.compile(
          "\\bFOR\\s+(?:NO\\s+KEY\\s+)?UPDATE\\b"
              + "|\\bFOR\\s+(?:KEY\\s+)?SHARE\\b"
              + "|\\bLOCK\\s+IN\\s+SHARE\\s+MODE\\b"
              + "|\\b(?:GET_LOCK|RELEASE_LOCK|PG_(?:TRY_)?ADVISORY_\\w+)\\s*\\("
              + "|\\A\\s*(?:\\{\\s*(?:\\?\\s*=\\s*)?CALL|CALL|DO)\\b"
              // A session setting outlives the read on a pooled connection; a transaction's own
              // (SET TRANSACTION, PostgreSQL's SET LOCAL) ends with it, so a replica may run it.
              + "|\\A\\s*SET\\b(?!\\s+(?:TRANSACTION|LOCAL)\\b)"
              + "|\\bTEMP(?:ORARY)?\\s+TABLE\\b",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern QUERY =
      Pattern.compile(
          "\\A(?:\\s|\\(|/\\*.*?\\*/|--[^\\n]*\\n)*(?:SELECT|WITH)\\b",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  /** A query that writes: SELECT INTO, or a WITH that ends in a data change. */
  private static final Pattern WRITES =
      Pattern.compile(
          "\\b(?:INTO|INSERT|UPDATE|DELETE|MERGE|REPLACE)\\b", Pattern.CASE_INSENSITIVE);

  private SqlText() {}

  /** Why {@code sql} runs on the source only, or {@code null} when a replica may run it. */
  public static @Nullable String sourceOnly(String sql) {
    if (HINT.matcher(sql).lookingAt()) {
      return "it carries the tidemark:source hint";
    }
    Matcher found = SOURCE_ONLY.matcher(sql);
    if (found.find()) {
      return "it runs on the source only (" + found.group().strip() + ")";
    }
    return null;
  }

  /**
   * {@code sql} as the server is sent it: without the {@code tidemark:source} hint it opens with.
   * Only a hint at the start is taken away, so text inside the statement (a value a user typed,
   * say) is sent as it is.
   */
  public static String withoutHint(String sql) {
    int start = 0;
    while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
      start++;
    }
    if (!sql.startsWith("/*", start)) {
      return sql; // the common case, decided without the pattern
    }
    Matcher hint = HINT.matcher(sql);
    return hint.lookingAt() ? sql.substring(hint.end()) : sql;
  }

  /**
   * The arguments of a JDBC call with the hint taken from the statement text they open with, if
   * any: {@code prepareStatement}, {@code execute}, {@code addBatch} and their kin.
   */
  public static @Nullable Object[] withoutHint(@Nullable Object[] args) {
    if (args == null || args.length == 0 || !(args[0] instanceof String sql)) {
      return args;
    }
    String sent = withoutHint(sql);
    if (sent == sql) {
      return args;
    }
    Object[] copy = args.clone();
    copy[0] = sent;
    return copy;
  }

  /**
   * Whether {@code sql} may hold several statements: a semicolon with more than blanks after it
   * (read as sent, so one inside a string literal or a comment counts too).
   */
  public static boolean severalStatements(String sql) {
    int end = sql.length();
    while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
      end--;
    }
    return sql.lastIndexOf(';', end - 1) >= 0;
  }

  /**
   * Whether {@code sql} is a query a replica may answer: a {@code SELECT} or {@code WITH} that
   * neither writes nor runs on the source only. A function it calls may still write; the replica's
   * read-only session refuses that ({@link #refusedAsWrite}).
   */
  public static boolean plainQuery(String sql) {
    return QUERY.matcher(sql).lookingAt() && !WRITES.matcher(sql).find() && sourceOnly(sql) == null;
  }

  /**
   * Whether {@code failure} is a write a read-only session refused: SQLSTATE {@code 25006} (MySQL's
   * read-only transaction and PostgreSQL's), or MySQL's {@code super_read_only} (error 1290).
   */
  public static boolean refusedAsWrite(Throwable failure) {
    for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
      if (e instanceof java.sql.SQLException sql
          && ("25006".equals(sql.getSQLState()) || sql.getErrorCode() == 1290)) {
        return true;
      }
    }
    return false;
  }
}
