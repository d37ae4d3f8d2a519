package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;

/** MariaDB positions for tests outside this package. */
public final class MariaDbGtids {

  private MariaDbGtids() {}

  /** The position of the GTID {@code domain-server-sequence}. */
  public static GtidSet position(long domain, long server, long sequence) {
    try {
      return MariaDbPositions.parse(domain + "-" + server + "-" + sequence);
    } catch (SQLDataException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
