package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * MariaDB's GTIDs as Tidemark positions. A MariaDB GTID is {@code domain-server-sequence}; under
 * {@code gtid_strict_mode} a domain's sequence numbers only grow, whichever server writes them. The
 * origin is the domain and the server that wrote it, the counter the sequence number, sequence
 * {@code n} being the interval {@code 1-n} of its origin: a union keeps the furthest sequence of
 * each, and containment compares them, the same operations as on MySQL's GTIDs, in tokens, scopes
 * and caches alike.
 *
 * <p>The server is part of the origin because sequence numbers are reused across a failover: a new
 * source that never received the old one's last writes numbers its own next writes as those were
 * numbered. Told apart by server, a token of a lost write names an origin the new source lacks that
 * far, however far it writes.
 *
 * <p>What a server has executed takes its identities from {@code gtid_binlog_state} (the last
 * sequence of each domain and server in its binary log) and how far each domain shows from {@code
 * gtid_current_pos}: the binary log counts a transaction before it commits, while a replica counts
 * an applied one in its position only once it committed. A replica without a binary log of what it
 * applies ({@code log_slave_updates}) tells only the server of each domain's last transaction.
 *
 * <p>Origins and server identities are UUIDs behind a mark whose variant bits no RFC 4122 UUID, so
 * no MySQL {@code server_uuid}, has, distinct from PostgreSQL's WAL origins.
 */
final class MariaDbPositions {

  /** "Mari" over the domain. */
  private static final long MARK = 0x4D61_7269L;

  /** Over the server of a position's origin. */
  private static final long ORIGIN = 0x4744L;

  /** Over the server of a server's identity. */
  private static final long SERVER = 0x5344L;

  private MariaDbPositions() {}

  /** The origin of the sequence numbers server {@code serverId} writes in domain {@code domain}. */
  static UUID origin(long domain, long serverId) {
    return new UUID(MARK << 32 | domain, ORIGIN << 48 | serverId);
  }

  /** The identity of the server whose {@code server_id} is {@code serverId}, as nodes are named. */
  static UUID server(long serverId) {
    return new UUID(MARK << 32, SERVER << 48 | serverId);
  }

  /**
   * Reads a GTID list as the server prints its positions and states ({@code 0-1-100,1-2-7}; empty
   * when it has none), each GTID the interval up to its sequence of its domain and server.
   *
   * @throws SQLDataException when the text, a server's answer, is no GTID list
   */
  static GtidSet parse(String list) throws SQLDataException {
    Map<UUID, Long> furthest = new HashMap<>();
    for (long[] gtid : gtids(list)) {
      if (gtid[2] > 0) {
        furthest.merge(origin(gtid[0], gtid[1]), gtid[2], Math::max);
      }
    }
    StringBuilder set = new StringBuilder();
    furthest.forEach(
        (origin, sequence) ->
            set.append(set.isEmpty() ? "" : ",")
                .append(origin)
                .append(sequence == 1 ? ":1" : ":1-" + sequence));
    return set.isEmpty() ? GtidSet.EMPTY : GtidSet.parse(set);
  }

  /**
   * What a server has executed and shows: each domain and server of {@code binlogState} up to the
   * sequence its domain shows in {@code currentPos}, and each GTID of {@code currentPos}.
   *
   * @throws SQLDataException when either, a server's answer, is no GTID list
   */
  static GtidSet executed(String binlogState, String currentPos) throws SQLDataException {
    Map<Long, Long> shown = new HashMap<>();
    for (long[] gtid : gtids(currentPos)) {
      shown.merge(gtid[0], gtid[2], Math::max);
    }
    StringBuilder capped = new StringBuilder(currentPos);
    for (long[] gtid : gtids(binlogState)) {
      long upTo = Math.min(gtid[2], shown.getOrDefault(gtid[0], 0L));
      if (upTo > 0) {
        capped.append(capped.isEmpty() ? "" : ",").append(gtid[0]).append('-').append(gtid[1]);
        capped.append('-').append(upTo);
      }
    }
    return parse(capped.toString());
  }

  /**
   * {@code positions} as a GTID list for {@code MASTER_GTID_WAIT}, which compares sequence numbers
   * per domain only: each domain's furthest, naming server 0; {@code null} when a position is no
   * MariaDB server's, which no MariaDB server ever executes.
   */
  static @Nullable String waitList(GtidSet positions) {
    Map<Long, Long> furthest = new HashMap<>();
    for (UUID origin : positions.uuids()) {
      if (origin.getMostSignificantBits() >>> 32 != MARK
          || origin.getLeastSignificantBits() >>> 48 != ORIGIN) {
        return null;
      }
      furthest.merge(
          origin.getMostSignificantBits() & 0xFFFF_FFFFL, positions.lastGno(origin), Math::max);
    }
    StringBuilder list = new StringBuilder();
    furthest.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                list.append(list.isEmpty() ? "" : ",")
                    .append(e.getKey())
                    .append("-0-")
                    .append(e.getValue()));
    return list.toString();
  }

  /** Each GTID of {@code list} as its domain, server and sequence. */
  private static long[][] gtids(String list) throws SQLDataException {
    String[] parts = list.split(",");
    long[][] gtids = new long[parts.length][];
    int count = 0;
    for (String part : parts) {
      String gtid = part.strip();
      if (gtid.isEmpty()) {
        continue;
      }
      String[] fields = gtid.split("-");
      try {
        if (fields.length != 3) {
          throw new NumberFormatException();
        }
        long domain = Long.parseLong(fields[0]);
        long server = Long.parseLong(fields[1]);
        long sequence = Long.parseUnsignedLong(fields[2]);
        if (domain < 0
            || domain > 0xFFFF_FFFFL
            || server < 0
            || server > 0xFFFF_FFFFL
            || sequence < 0
            || sequence > GtidSet.MAX_GNO) {
          throw new NumberFormatException();
        }
        gtids[count++] = new long[] {domain, server, sequence};
      } catch (NumberFormatException e) {
        throw new SQLDataException("not a MariaDB GTID list: '" + list + "'", "22000");
      }
    }
    return Arrays.copyOf(gtids, count);
  }
}
