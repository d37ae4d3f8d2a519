package io.tidemark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compares {@link GtidSet} with the real server's GTID functions: normalization ({@code
 * GTID_SUBTRACT(a, '')}), containment ({@code GTID_SUBSET}), subtraction, union and intersection,
 * on thousands of random pairs of untidy text, many cases per round trip; then the edge cases one
 * by one, including those where the parser is deliberately stricter than the server.
 */
@ExtendWith(TestkitExtension.class)
class GtidSetServerDifferentialIT {

  private static final int CASES = 2_500;
  private static final int CASES_PER_QUERY = 100;
  private static final long SEED = 20_251_129L;
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "0ad6eae9-1234-11e1-9e33-c80aa9429562";

  /** One random pair, what we compute for it, and what the server said. */
  private record Case(String a, String b, List<String> ours) {}

  @Test
  void agreesWithTheServerOnThousandsOfRandomSets(MySqlTopology topology) throws SQLException {
    RandomGtids random = new RandomGtids(SEED, false);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      String a = random.next().text();
      String b = random.next().text();
      cases.add(new Case(a, b, ours(a, b)));
    }
    List<String> mismatches = new ArrayList<>();
    int comparisons = 0;
    try (Connection connection = topology.source().openConnection()) {
      for (int from = 0; from < CASES; from += CASES_PER_QUERY) {
        List<Case> batch = cases.subList(from, Math.min(CASES, from + CASES_PER_QUERY));
        List<List<String>> theirs = server(connection, batch);
        for (int i = 0; i < batch.size(); i++) {
          Case c = batch.get(i);
          for (int op = 0; op < c.ours().size(); op++) {
            comparisons++;
            if (!Objects.equals(c.ours().get(op), theirs.get(i).get(op))) {
              mismatches.add(
                  OPERATIONS[op]
                      + " of ["
                      + c.a()
                      + "] and ["
                      + c.b()
                      + "]: ours ["
                      + c.ours().get(op)
                      + "], server ["
                      + theirs.get(i).get(op)
                      + "]");
            }
          }
        }
      }
    }
    System.out.printf(
        "GTID differential against MySQL %s: %d random cases (seed %d), %d comparisons, %d"
            + " mismatches%n",
        topology.source().version(), CASES, SEED, comparisons, mismatches.size());
    mismatches.stream().limit(20).forEach(m -> System.out.println("  mismatch: " + m));

    assertThat(comparisons).isEqualTo(CASES * OPERATIONS.length);
    assertThat(mismatches).isEmpty();
  }

  private static final String[] OPERATIONS = {
    "normalize a",
    "normalize b",
    "a subset of b",
    "b subset of a",
    "a minus b",
    "union",
    "intersect"
  };

  private static final String CASE_SQL =
      "SELECT ? AS i, GTID_SUBTRACT(?, ''), GTID_SUBTRACT(?, ''), GTID_SUBSET(?, ?),"
          + " GTID_SUBSET(?, ?), GTID_SUBTRACT(?, ?), GTID_SUBTRACT(CONCAT(?, ',', ?), ''),"
          + " GTID_SUBTRACT(?, GTID_SUBTRACT(?, ?))";

  private static List<String> ours(String a, String b) {
    GtidSet x = GtidSet.parse(a);
    GtidSet y = GtidSet.parse(b);
    return List.of(
        x.toString(),
        y.toString(),
        y.containsAll(x) ? "1" : "0",
        x.containsAll(y) ? "1" : "0",
        x.subtract(y).toString(),
        x.union(y).toString(),
        x.intersection(y).toString());
  }

  private static List<List<String>> server(Connection connection, List<Case> batch)
      throws SQLException {
    String sql = String.join(" UNION ALL ", Collections.nCopies(batch.size(), CASE_SQL));
    List<List<String>> rows = new ArrayList<>(Collections.nCopies(batch.size(), null));
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      int p = 1;
      for (int i = 0; i < batch.size(); i++) {
        String a = batch.get(i).a();
        String b = batch.get(i).b();
        statement.setInt(p++, i);
        for (String value : new String[] {a, b, a, b, b, a, a, b, a, b, a, a, b}) {
          statement.setString(p++, value);
        }
      }
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          List<String> row = new ArrayList<>();
          for (int column = 2; column <= OPERATIONS.length + 1; column++) {
            row.add(rs.getString(column));
          }
          rows.set(rs.getInt(1), row);
        }
      }
    }
    return rows;
  }

  static Stream<Arguments> edgeCases() {
    return Stream.of(
        // Both accept, with the same meaning.
        Arguments.of("empty string", "", Agreement.SAME),
        Arguments.of("only whitespace and commas", " ,\n, ", Agreement.SAME),
        Arguments.of("duplicate UUIDs merge", A + ":1-5," + A + ":6-9:3", Agreement.SAME),
        Arguments.of("upper-case UUID", A.toUpperCase() + ":1-5", Agreement.SAME),
        Arguments.of(
            "whitespace everywhere", " " + A + " : 1 - 5 ,\r\n\t" + B + ":2", Agreement.SAME),
        Arguments.of("largest GNO, 2^63-2", A + ":9223372036854775806", Agreement.SAME),
        Arguments.of("interval up to 2^63-2", A + ":1-9223372036854775806", Agreement.SAME),
        Arguments.of("leading zeros", A + ":0003-07", Agreement.SAME),
        // Both refuse.
        Arguments.of("GNO 0", A + ":0", Agreement.BOTH_REFUSE),
        Arguments.of("interval from GNO 0", A + ":0-3", Agreement.BOTH_REFUSE),
        Arguments.of("GNO 2^63-1", A + ":9223372036854775807", Agreement.BOTH_REFUSE),
        Arguments.of("GNO 2^63", A + ":9223372036854775808", Agreement.BOTH_REFUSE),
        Arguments.of("GNO 2^64+1", A + ":18446744073709551617", Agreement.BOTH_REFUSE),
        Arguments.of("interval to 2^63-1", A + ":5-9223372036854775807", Agreement.BOTH_REFUSE),
        Arguments.of("colon without interval", A + ":", Agreement.BOTH_REFUSE),
        Arguments.of("interval without start", A + ":-3", Agreement.BOTH_REFUSE),
        Arguments.of("two numbers", A + ":1 2", Agreement.BOTH_REFUSE),
        Arguments.of("junk after interval", A + ":1-5 junk", Agreement.BOTH_REFUSE),
        Arguments.of("semicolon separator", A + ":1;" + B + ":2", Agreement.BOTH_REFUSE),
        // The server reads these as fewer GTIDs than written, or ignores part of the text.
        Arguments.of("inverted interval", A + ":5-3", Agreement.ONLY_SERVER_ACCEPTS),
        Arguments.of(
            "inverted interval among others", A + ":1-5:9-7", Agreement.ONLY_SERVER_ACCEPTS),
        Arguments.of("UUID without intervals", A, Agreement.ONLY_SERVER_ACCEPTS),
        // The parser that reads tags (8.3+) is stricter here than the old one: both refuse.
        Arguments.of("interval without end", A + ":1-", Agreement.UNTIL_8_3_ONLY_SERVER_ACCEPTS),
        Arguments.of("signed GNO", A + ":+3", Agreement.UNTIL_8_3_ONLY_SERVER_ACCEPTS),
        Arguments.of(
            "text after NUL", A + ":1-5\0" + B + ":1", Agreement.UNTIL_8_3_ONLY_SERVER_ACCEPTS),
        // ... and looser here. Tidemark stays strict: every set it carries was printed by a server,
        // which always writes the dashes, so a UUID without them is not a server's set.
        Arguments.of(
            "UUID without dashes",
            "3e11fa4771ca11e19e33c80aa9429562:1",
            Agreement.FROM_8_3_ONLY_SERVER_ACCEPTS));
  }

  /** How the server and the parser are expected to treat a text. */
  enum Agreement {
    SAME,
    BOTH_REFUSE,
    ONLY_SERVER_ACCEPTS,
    /** The server before 8.3 accepts, as {@link #ONLY_SERVER_ACCEPTS}; 8.3+ refuses as we do. */
    UNTIL_8_3_ONLY_SERVER_ACCEPTS,
    /** Both refuse before 8.3; 8.3+ accepts, we do not. */
    FROM_8_3_ONLY_SERVER_ACCEPTS;

    /** What this agreement means on the given server. */
    Agreement on(ServerVersion server) {
      boolean tagParser = server.atLeast(8, 3, 0);
      return switch (this) {
        case UNTIL_8_3_ONLY_SERVER_ACCEPTS -> tagParser ? BOTH_REFUSE : ONLY_SERVER_ACCEPTS;
        case FROM_8_3_ONLY_SERVER_ACCEPTS -> tagParser ? ONLY_SERVER_ACCEPTS : BOTH_REFUSE;
        default -> this;
      };
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("edgeCases")
  void treatsEdgeCasesAsTheServerDoesOrStricterOnPurpose(
      String what, String text, Agreement expected, MySqlTopology topology) throws SQLException {
    String server = serverNormalization(topology, text);
    String ours;
    try {
      ours = GtidSet.parse(text).toString();
    } catch (GtidSetFormatException e) {
      ours = null;
    }

    switch (expected.on(topology.source().version())) {
      case SAME -> assertThat(ours).isNotNull().isEqualTo(server);
      case BOTH_REFUSE -> {
        assertThat(server).as("server").isNull();
        assertThat(ours).as("ours").isNull();
      }
      case ONLY_SERVER_ACCEPTS -> {
        assertThat(server).as("server").isNotNull();
        assertThat(ours).as("ours").isNull();
      }
      default -> throw new AssertionError(expected);
    }
  }

  @Test
  void acceptsTaggedGtidsThatThisServerVersionRefuses(MySqlTopology topology) throws SQLException {
    String tagged = A + ":1-5:tag_a:1-3";

    assertThat(GtidSet.parse(tagged)).hasToString(tagged);
    if (topology.source().version().atLeast(8, 3, 0)) {
      assertThat(serverNormalization(topology, tagged)).isEqualTo(tagged);
    } else {
      assertThat(serverNormalization(topology, tagged)).isNull();
    }
  }

  /** The server's normalization of {@code text}, or null when it refuses the text. */
  private static String serverNormalization(MySqlTopology topology, String text)
      throws SQLException {
    try (Connection connection = topology.source().openConnection();
        PreparedStatement statement = connection.prepareStatement("SELECT GTID_SUBTRACT(?, '')")) {
      statement.setString(1, text);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    } catch (SQLException e) {
      if (e.getErrorCode() == 1772) {
        return null;
      }
      throw e;
    }
  }
}
