package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL WAL position as a Tidemark position: the origin is the cluster (its system
 * identifier) with the timeline, the counter the log sequence number. LSN {@code n} is the interval
 * {@code 1-n} of its origin, so a union keeps the furthest LSN of each timeline, and a set contains
 * a position when it reaches as far on that timeline: the same operations as on MySQL's GTIDs, with
 * the same meaning, in tokens, scopes and caches alike.
 *
 * <p>An origin's UUID holds the system identifier in its first 64 bits and the timeline in its last
 * 32, behind a mark whose variant bits no RFC 4122 UUID, hence no MySQL {@code server_uuid}, has.
 *
 * @param systemId the cluster's system identifier, shared by the primary and its standbys
 * @param timeline the timeline, which a promotion moves on
 * @param lsn the log sequence number
 */
public record WalPosition(long systemId, long timeline, long lsn) {

  private static final long MARK = 0x5047_0000L;

  /**
   * The position of a page's first record when the log's insert position is right after the page
   * header, as PostgreSQL reports it: the end of the page before is where the last record ended.
   */
  private static final int SHORT_PAGE_HEADER = 24;

  /** As {@link #SHORT_PAGE_HEADER}, for the first page of a segment. */
  private static final int LONG_PAGE_HEADER = 40;

  public WalPosition {
    if (timeline < 1 || timeline > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("timeline " + timeline + " is not a PostgreSQL timeline");
    }
    if (lsn < 0 || lsn > GtidSet.MAX_GNO) {
      throw new IllegalArgumentException("LSN " + text(lsn) + " is beyond what a token holds");
    }
  }

  /** The origin of positions on {@code timeline} of the cluster {@code systemId}. */
  public static UUID origin(long systemId, long timeline) {
    return new UUID(systemId, MARK << 32 | timeline);
  }

  /** The position of {@code origin} in {@code set}, or {@code null} when it is no WAL origin. */
  public static @Nullable WalPosition in(GtidSet set, UUID origin) {
    if (origin.getLeastSignificantBits() >>> 32 != MARK) {
      return null;
    }
    return new WalPosition(
        origin.getMostSignificantBits(),
        origin.getLeastSignificantBits() & 0xFFFF_FFFFL,
        set.lastGno(origin));
  }

  /** This position as a set: empty at LSN 0, which precedes every record. */
  public GtidSet toGtidSet() {
    if (lsn == 0) {
      return GtidSet.EMPTY;
    }
    return GtidSet.parse(origin(systemId, timeline) + (lsn == 1 ? ":1" : ":1-" + lsn));
  }

  /**
   * Reads PostgreSQL's {@code pg_lsn} text, two hexadecimal halves around a slash ({@code
   * 16/B374D848}).
   *
   * @throws SQLDataException when the text, a server's answer, is no LSN
   */
  public static long parseLsn(String text) throws SQLDataException {
    int slash = text.indexOf('/');
    if (slash < 1 || slash > 8 || text.length() - slash - 1 < 1 || text.length() - slash > 9) {
      throw new SQLDataException("not a PostgreSQL LSN: '" + text + "'", "22000");
    }
    try {
      long high = Long.parseLong(text, 0, slash, 16);
      long low = Long.parseLong(text, slash + 1, text.length(), 16);
      return high << 32 | low;
    } catch (NumberFormatException e) {
      throw new SQLDataException("not a PostgreSQL LSN: '" + text + "'", "22000");
    }
  }

  /** The {@code pg_lsn} text of {@code lsn}. */
  public static String text(long lsn) {
    return Long.toHexString(lsn >>> 32).toUpperCase()
        + "/"
        + Long.toHexString(lsn & 0xFFFF_FFFFL).toUpperCase();
  }

  /**
   * Where the last record inserted before {@code insertLsn} ended. PostgreSQL reports the insert
   * position past the header of the page the next record goes to; the last record ended at the
   * page's start, and a standby that replayed it reports that, not the position past the header.
   */
  public static long lastRecordEnd(long insertLsn, int blockSize, long segmentSize) {
    if (insertLsn % segmentSize == LONG_PAGE_HEADER) {
      return insertLsn - LONG_PAGE_HEADER;
    }
    if (insertLsn % blockSize == SHORT_PAGE_HEADER) {
      return insertLsn - SHORT_PAGE_HEADER;
    }
    return insertLsn;
  }

  @Override
  public String toString() {
    return text(lsn) + " on timeline " + timeline + " of system " + Long.toUnsignedString(systemId);
  }
}
