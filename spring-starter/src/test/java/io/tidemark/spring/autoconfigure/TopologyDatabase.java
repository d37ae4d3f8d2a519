package io.tidemark.spring.autoconfigure;

import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mysql.MySqlTopology;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** A database of a test class's own on the shared topology, made before the class's tests. */
public final class TopologyDatabase implements BeforeAllCallback {

  private final String prefix;
  private MySqlTopology topology;
  private String name;

  /** A database named after {@code prefix}. */
  public TopologyDatabase(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    topology = SharedServers.topology();
    name = topology.createDatabase(prefix);
  }

  public MySqlTopology topology() {
    return topology;
  }

  public String name() {
    return name;
  }

  /** {@link TidemarkRunners#on} this database, signing tokens with {@code letter} repeated. */
  public ApplicationContextRunner runner(String letter) {
    return TidemarkRunners.on(topology, name, letter);
  }
}
