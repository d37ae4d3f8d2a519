package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;

/** MariaDB positions for tests outside this package. */
public final class MariaDbGtids {

  private MariaDbGtids() {}

  /** The position of sequence number {@code sequence} in replication domain {@code domain}. */
  public static GtidSet position(long domain, long sequence) {
    try {
      return MariaDbPositions.parse(domain + "-1-" + sequence);
    } catch (SQLDataException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
