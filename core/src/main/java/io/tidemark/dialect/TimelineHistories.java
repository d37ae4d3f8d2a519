package io.tidemark.dialect;

import io.tidemark.internal.Failures;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The timeline histories of PostgreSQL clusters: where each earlier timeline ended (its switch
 * point), which a server's executed set reaches up to. A history never changes, so each is read
 * from the server once per cluster and timeline.
 */
final class TimelineHistories {

  private static final System.Logger LOG = System.getLogger(TimelineHistories.class.getName());

  /**
   * By origin, the switch points of the timelines before it, read once per cluster and timeline: a
   * history never changes. Empty when it could not be read.
   */
  private static final ConcurrentMap<UUID, List<WalPosition>> HISTORIES = new ConcurrentHashMap<>();

  /**
   * The switch points of the timelines before {@code position}'s, from its history file on the
   * server behind {@code connection}; empty, with a warning, when the role may not read it.
   */
  static List<WalPosition> switches(Connection connection, WalPosition position)
      throws SQLException {
    if (position.timeline() == 1) {
      return List.of();
    }
    UUID origin = WalPosition.origin(position.systemId(), position.timeline());
    List<WalPosition> known = HISTORIES.get(origin);
    if (known != null) {
      return known;
    }
    String file = "pg_wal/%08X.history".formatted(position.timeline());
    List<WalPosition> read;
    try (PreparedStatement ps = connection.prepareStatement("SELECT pg_read_file(?)")) {
      ps.setString(1, file);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        read = history(position.systemId(), rs.getString(1));
      }
    } catch (SQLException e) {
      if (Failures.isConnectionFailure(e)) {
        throw e;
      }
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot read "
              + file
              + " ("
              + e.getMessage()
              + "): tokens of the timelines before "
              + position.timeline()
              + " will be refused. Grant the role EXECUTE on pg_read_file(text) and restart.");
      read = List.of();
    }
    HISTORIES.putIfAbsent(origin, read);
    return read;
  }

  /**
   * The switch points in a timeline history file: one line per earlier timeline, its number, the
   * LSN where it ended and why, separated by tabs; comments start with {@code #}.
   *
   * @throws SQLDataException when a line is none of those
   */
  static List<WalPosition> history(long systemId, String text) throws SQLDataException {
    List<WalPosition> switches = new ArrayList<>();
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      String[] fields = trimmed.split("\\s+", 3);
      try {
        switches.add(
            new WalPosition(systemId, Long.parseLong(fields[0]), WalPosition.parseLsn(fields[1])));
      } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
        throw new SQLDataException("not a timeline history line: '" + line + "'", "22000");
      }
    }
    return List.copyOf(switches);
  }

  private TimelineHistories() {}
}
