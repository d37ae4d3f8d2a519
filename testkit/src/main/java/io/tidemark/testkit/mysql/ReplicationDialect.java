package io.tidemark.testkit.mysql;

import io.tidemark.testkit.ServerVersion;

/**
 * Replication statements in the syntax the server understands: {@code CHANGE MASTER}/{@code START
 * SLAVE} before 8.0.23, {@code CHANGE REPLICATION SOURCE}/{@code START REPLICA} from then on (the
 * old forms are gone in 9.x). Replicas retry a lost source every second (the default is a minute),
 * so restarts and failovers in tests settle quickly.
 */
final class ReplicationDialect {

  private final boolean sourceReplicaSyntax;

  ReplicationDialect(ServerVersion version) {
    this.sourceReplicaSyntax = version.atLeast(8, 0, 23);
  }

  String changeSource(String host, int port, String user, String password) {
    String p = sourceReplicaSyntax ? "SOURCE_" : "MASTER_";
    return (sourceReplicaSyntax ? "CHANGE REPLICATION SOURCE TO " : "CHANGE MASTER TO ")
        + p
        + "HOST = "
        + quote(host)
        + ", "
        + p
        + "PORT = "
        + port
        + ", "
        + p
        + "USER = "
        + quote(user)
        + ", "
        + p
        + "PASSWORD = "
        + quote(password)
        + ", "
        + p
        + "AUTO_POSITION = 1, "
        + p
        + "CONNECT_RETRY = 1, GET_"
        + (sourceReplicaSyntax ? "SOURCE" : "MASTER")
        + "_PUBLIC_KEY = 1";
  }

  String changeDelay(long seconds) {
    return sourceReplicaSyntax
        ? "CHANGE REPLICATION SOURCE TO SOURCE_DELAY = " + seconds
        : "CHANGE MASTER TO MASTER_DELAY = " + seconds;
  }

  String start(Thread thread) {
    return (sourceReplicaSyntax ? "START REPLICA" : "START SLAVE") + thread.suffix;
  }

  String stop(Thread thread) {
    return (sourceReplicaSyntax ? "STOP REPLICA" : "STOP SLAVE") + thread.suffix;
  }

  String resetAll() {
    return sourceReplicaSyntax ? "RESET REPLICA ALL" : "RESET SLAVE ALL";
  }

  /** Which replication thread a statement is about. */
  enum Thread {
    BOTH(""),
    RECEIVER(" IO_THREAD"),
    APPLIER(" SQL_THREAD");

    private final String suffix;

    Thread(String suffix) {
      this.suffix = suffix;
    }
  }

  private static String quote(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
  }
}
