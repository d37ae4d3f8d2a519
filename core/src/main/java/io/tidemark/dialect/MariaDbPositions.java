package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * MariaDB's GTID positions as Tidemark positions. A MariaDB position is one {@code
 * domain-server-sequence} per replication domain, and under {@code gtid_strict_mode} a domain's
 * sequence numbers only grow, whichever server wrote them: a server has executed a position when,
 * in each of its domains, it has reached that sequence number. So the origin is the domain and the
 * counter the sequence number, sequence {@code n} being the interval {@code 1-n} of its origin: a
 * union keeps the furthest sequence of each domain and containment compares them, the same
 * operations as on MySQL's GTIDs, in tokens, scopes and caches alike.
 *
 * <p>Origins and server identities are UUIDs behind a mark whose variant bits no RFC 4122 UUID, so
 * no MySQL {@code server_uuid}, has, distinct from PostgreSQL's WAL origins.
 */
final class MariaDbPositions {

  /** "MariaDB" and a zero byte. */
  private static final long MARK = 0x4D61_7269_6144_4200L;

  private static final long DOMAIN = 0x4744_0000L;
  private static final long SERVER = 0x5344_0000L;

  private MariaDbPositions() {}

  /** The origin of replication domain {@code domain}'s sequence numbers. */
  static UUID origin(long domain) {
    return new UUID(MARK, DOMAIN << 32 | domain);
  }

  /** The identity of the server whose {@code server_id} is {@code serverId}, as nodes are named. */
  static UUID server(long serverId) {
    return new UUID(MARK, SERVER << 32 | serverId);
  }

  /**
   * Reads a GTID list as the server prints its positions ({@code 0-1-100,1-2-7}; empty when it has
   * none).
   *
   * @throws SQLDataException when the text, a server's answer, is no GTID list
   */
  static GtidSet parse(String list) throws SQLDataException {
    GtidSet set = GtidSet.EMPTY;
    for (String gtid : list.split(",")) {
      String trimmed = gtid.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      String[] parts = trimmed.split("-");
      long domain;
      long sequence;
      try {
        if (parts.length != 3) {
          throw new NumberFormatException();
        }
        domain = Long.parseLong(parts[0]);
        Long.parseLong(parts[1]);
        sequence = Long.parseUnsignedLong(parts[2]);
      } catch (NumberFormatException e) {
        throw new SQLDataException("not a MariaDB GTID list: '" + list + "'", "22000");
      }
      if (domain < 0 || domain > 0xFFFF_FFFFL || sequence < 0 || sequence > GtidSet.MAX_GNO) {
        throw new SQLDataException("not a MariaDB GTID list: '" + list + "'", "22000");
      }
      if (sequence > 0) {
        set = set.union(GtidSet.parse(origin(domain) + (sequence == 1 ? ":1" : ":1-" + sequence)));
      }
    }
    return set;
  }

  /**
   * {@code positions} as a GTID list for {@code MASTER_GTID_WAIT}, which compares sequence numbers
   * per domain only, so each names server 0; {@code null} when a position is no MariaDB domain's,
   * which no MariaDB server ever executes.
   */
  static @Nullable String text(GtidSet positions) {
    StringBuilder text = new StringBuilder();
    for (UUID origin : positions.uuids()) {
      if (origin.getMostSignificantBits() != MARK
          || origin.getLeastSignificantBits() >>> 32 != DOMAIN) {
        return null;
      }
      if (!text.isEmpty()) {
        text.append(',');
      }
      text.append(origin.getLeastSignificantBits() & 0xFFFF_FFFFL)
          .append("-0-")
          .append(positions.lastGno(origin));
    }
    return text.toString();
  }
}
