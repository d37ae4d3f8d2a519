package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.mysql.ReplicationDialect.Thread;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReplicationDialectTests {

  private final ReplicationDialect mysql84 = new ReplicationDialect(new ServerVersion(8, 4, 3));

  /** Master and slave before 8.0.23, source and replica from it on. */
  @ParameterizedTest(name = "MySQL {0}")
  @MethodSource("syntaxes")
  void usesMasterSlaveSyntaxBefore8023AndSourceReplicaSyntaxFrom8023(
      ServerVersion version,
      String changeSource,
      Thread started,
      String start,
      Thread stopped,
      String stop,
      int delay,
      String changeDelay,
      String resetAll) {
    ReplicationDialect dialect = new ReplicationDialect(version);

    assertThat(dialect.changeSource("127.0.0.1", 3307, "repl", "pw")).isEqualTo(changeSource);
    assertThat(dialect.start(started)).isEqualTo(start);
    assertThat(dialect.stop(stopped)).isEqualTo(stop);
    assertThat(dialect.changeDelay(delay)).isEqualTo(changeDelay);
    assertThat(dialect.resetAll()).isEqualTo(resetAll);
  }

  static Stream<Arguments> syntaxes() {
    return Stream.of(
        Arguments.of(
            new ServerVersion(8, 0, 15),
            "CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = 3307, MASTER_USER = 'repl',"
                + " MASTER_PASSWORD = 'pw', MASTER_AUTO_POSITION = 1, MASTER_CONNECT_RETRY = 1,"
                + " GET_MASTER_PUBLIC_KEY = 1",
            Thread.APPLIER,
            "START SLAVE SQL_THREAD",
            Thread.RECEIVER,
            "STOP SLAVE IO_THREAD",
            2,
            "CHANGE MASTER TO MASTER_DELAY = 2",
            "RESET SLAVE ALL"),
        Arguments.of(
            new ServerVersion(8, 4, 3),
            "CHANGE REPLICATION SOURCE TO SOURCE_HOST = '127.0.0.1', SOURCE_PORT = 3307,"
                + " SOURCE_USER = 'repl', SOURCE_PASSWORD = 'pw', SOURCE_AUTO_POSITION = 1,"
                + " SOURCE_CONNECT_RETRY = 1, GET_SOURCE_PUBLIC_KEY = 1",
            Thread.BOTH,
            "START REPLICA",
            Thread.APPLIER,
            "STOP REPLICA SQL_THREAD",
            0,
            "CHANGE REPLICATION SOURCE TO SOURCE_DELAY = 0",
            "RESET REPLICA ALL"));
  }

  @Test
  void escapesQuotesInLiterals() {
    assertThat(mysql84.changeSource("h", 1, "o'neil", "a\\b")).contains("'o''neil'", "'a\\\\b'");
  }
}
