package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.mysql.ReplicationDialect.Thread;
import org.junit.jupiter.api.Test;

class ReplicationDialectTests {

  private final ReplicationDialect mysql80 = new ReplicationDialect(new ServerVersion(8, 0, 15));
  private final ReplicationDialect mysql84 = new ReplicationDialect(new ServerVersion(8, 4, 3));

  @Test
  void usesMasterSlaveSyntaxBefore8023() {
    assertThat(mysql80.changeSource("127.0.0.1", 3307, "repl", "pw"))
        .isEqualTo(
            "CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = 3307, MASTER_USER = 'repl',"
                + " MASTER_PASSWORD = 'pw', MASTER_AUTO_POSITION = 1, MASTER_CONNECT_RETRY = 1,"
                + " GET_MASTER_PUBLIC_KEY = 1");
    assertThat(mysql80.start(Thread.APPLIER)).isEqualTo("START SLAVE SQL_THREAD");
    assertThat(mysql80.stop(Thread.RECEIVER)).isEqualTo("STOP SLAVE IO_THREAD");
    assertThat(mysql80.changeDelay(2)).isEqualTo("CHANGE MASTER TO MASTER_DELAY = 2");
    assertThat(mysql80.resetAll()).isEqualTo("RESET SLAVE ALL");
  }

  @Test
  void usesSourceReplicaSyntaxFrom8023() {
    assertThat(mysql84.changeSource("127.0.0.1", 3307, "repl", "pw"))
        .isEqualTo(
            "CHANGE REPLICATION SOURCE TO SOURCE_HOST = '127.0.0.1', SOURCE_PORT = 3307,"
                + " SOURCE_USER = 'repl', SOURCE_PASSWORD = 'pw', SOURCE_AUTO_POSITION = 1,"
                + " SOURCE_CONNECT_RETRY = 1, GET_SOURCE_PUBLIC_KEY = 1");
    assertThat(mysql84.start(Thread.BOTH)).isEqualTo("START REPLICA");
    assertThat(mysql84.stop(Thread.APPLIER)).isEqualTo("STOP REPLICA SQL_THREAD");
    assertThat(mysql84.changeDelay(0)).isEqualTo("CHANGE REPLICATION SOURCE TO SOURCE_DELAY = 0");
    assertThat(mysql84.resetAll()).isEqualTo("RESET REPLICA ALL");
  }

  @Test
  void escapesQuotesInLiterals() {
    assertThat(mysql84.changeSource("h", 1, "o'neil", "a\\b")).contains("'o''neil'", "'a\\\\b'");
  }
}
