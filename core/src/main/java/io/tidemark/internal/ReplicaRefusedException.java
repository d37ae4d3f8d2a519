package io.tidemark.internal;

import java.sql.SQLFeatureNotSupportedException;
import org.jspecify.annotations.Nullable;

/**
 * What a read's query asked of a replica connection that only the source runs, refused by Tidemark
 * before anything was sent (a {@code SERIALIZABLE} transaction on a PostgreSQL hot standby): the
 * read path takes it for a replica failure, and the read's policy decides. Raised on replica
 * connections only, so never where the read has no other node to go to.
 */
public final class ReplicaRefusedException extends SQLFeatureNotSupportedException {

  private static final long serialVersionUID = 1L;

  private final boolean sourceOnly;

  /** A refusal with the server's own message and SQLSTATE for it. */
  public ReplicaRefusedException(String message, String sqlState) {
    this(message, sqlState, false);
  }

  private ReplicaRefusedException(String message, String sqlState, boolean sourceOnly) {
    super(message, sqlState);
    this.sourceOnly = sourceOnly;
  }

  /**
   * A statement only the source may run (a locking read, say): the read goes to the source whatever
   * its policy, as it would with no replica at all.
   */
  public static ReplicaRefusedException sourceOnly(String message) {
    return new ReplicaRefusedException(message, "0A000", true);
  }

  /** Whether the read goes to the source whatever its policy. */
  public boolean sourceOnly() {
    return sourceOnly;
  }

  /**
   * The refusal among {@code failure} and its causes, as a framework that translated it (Spring's
   * transaction managers, JdbcTemplate) carries it; {@code null} when there is none.
   */
  public static @Nullable ReplicaRefusedException in(Throwable failure) {
    return Failures.find(failure, ReplicaRefusedException.class);
  }
}
