package io.tidemark.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.time.Duration;

/**
 * A MySQL source and one replica of the testkit on loopback, with a fresh database holding table
 * {@code t (id BIGINT PRIMARY KEY, v INT)}, and the pools the benchmark opened on them.
 */
final class Cluster extends BenchCluster<MySqlNode> {

  final MySqlTopology topology;

  private Cluster(MySqlTopology topology, String prefix) {
    super(topology, prefix, topology.source(), topology.replica());
    this.topology = topology;
    source.execute("CREATE TABLE `" + database + "`.t (id BIGINT PRIMARY KEY, v INT)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(30));
  }

  /** Starts (or, in the smoke run, reuses) the servers and creates the database. */
  static Cluster start(String prefix) {
    return new Cluster(
        topology(MySqlTopology.class, () -> MySqlTopology.builder().replicas(1).start()), prefix);
  }

  /** A pool on the source whose commits report their GTIDs (Connector/J session tracking). */
  HikariDataSource trackingSourcePool(int size) {
    return pool(source, size, "&trackSessionState=true", false);
  }

  /** A pool on the source without session tracking: capture has to query the executed set. */
  HikariDataSource plainSourcePool(int size) {
    return sourcePool(size);
  }

  /** The highest GNO the source has given so far, from its {@code gtid_executed}. */
  long lastSourceGno() {
    return lastGno(source.gtidExecuted(), source.serverUuid());
  }

  /** The last GNO of {@code uuid} in a GTID set's text, or 0 when it has none. */
  static long lastGno(String gtidSet, String uuid) {
    for (String part : gtidSet.replace("\n", "").split(",")) {
      String trimmed = part.trim();
      if (trimmed.regionMatches(true, 0, uuid, 0, uuid.length())) {
        String last = trimmed.substring(trimmed.lastIndexOf(':') + 1);
        return Long.parseLong(last.substring(last.indexOf('-') + 1));
      }
    }
    return 0;
  }
}
