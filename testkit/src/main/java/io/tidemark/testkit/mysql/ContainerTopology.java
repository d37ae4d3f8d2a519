package io.tidemark.testkit.mysql;

import io.tidemark.testkit.Backend;
import io.tidemark.testkit.FileTrees;
import io.tidemark.testkit.FreePorts;
import io.tidemark.testkit.ProcessReaper;
import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.TestkitException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.testcontainers.DockerClientFactory;

/**
 * Starts a {@link MySqlTopology} of containers: every server in a container of {@link
 * Backend#mysqlImage()} on the host's network, started side by side, then wired as the process
 * backend wires its servers. Kept apart so that Testcontainers is loaded only when used.
 */
final class ContainerTopology {

  private ContainerTopology() {}

  static MySqlTopology start(int replicas) {
    long started = System.nanoTime();
    String image = Backend.mysqlImage();
    Path home = ProcessReaper.newFolder("mysql");
    List<MySqlContainerServer> servers =
        MySqlTopology.perNode(
            replicas,
            (i, name) ->
                new MySqlContainerServer(image, name, home.resolve(name), FreePorts.next(), i + 1));
    try {
      List<CompletableFuture<Void>> launches = new ArrayList<>();
      for (int i = 0; i < servers.size(); i++) {
        MySqlContainerServer server = servers.get(i);
        boolean replica = i > 0;
        launches.add(CompletableFuture.runAsync(() -> launch(server, replica)));
      }
      CompletableFuture.allOf(launches.toArray(CompletableFuture[]::new)).join();
    } catch (RuntimeException e) {
      servers.forEach(MySqlContainerServer::remove);
      FileTrees.deleteRecursively(home);
      throw e.getCause() instanceof TestkitException cause ? cause : e;
    }
    List<MySqlNode> nodes =
        MySqlTopology.perNode(
            replicas,
            (i, name) -> {
              MySqlContainerServer server = servers.get(i);
              return new MySqlNode(name, server, version(server.port()), MySqlTopology.roleAt(i));
            });
    String version = nodes.get(0).version().toString();
    return MySqlTopology.wired(
        "containers, image " + image + " (MySQL " + version + ") on " + engine(),
        home,
        nodes,
        started);
  }

  private static void launch(MySqlContainerServer server, boolean replica) {
    server.launch(replica);
    server.awaitReady(MySqlNode.urlOf(server.port(), ""));
  }

  private static ServerVersion version(int port) {
    try (Connection c =
            DriverManager.getConnection(MySqlNode.urlOf(port, ""), MySqlServerProcess.USER, "");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT VERSION()")) {
      rs.next();
      return ServerVersion.parse(rs.getString(1));
    } catch (SQLException e) {
      throw new TestkitException("cannot read the version of the server on port " + port, e);
    }
  }

  /** The engine Testcontainers talks to, as it reports itself: e.g. Podman Engine 4.3.1. */
  static String engine() {
    var version = DockerClientFactory.instance().client().versionCmd().exec();
    var components = version.getComponents();
    String product =
        components == null || components.isEmpty() ? "Docker API" : components.get(0).getName();
    return product + " " + version.getVersion();
  }
}
