package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code TIDEMARK_MYSQLD} switches the server: here to a wrapper script around the default. */
class CustomMysqldIT {

  @Test
  void topologyRunsOnTheServerNamedByTheEnvironment(@TempDir Path dir) throws Exception {
    MySqlBinaries bundled = MySqlBinaries.resolve(Map.of());
    Path marker = dir.resolve("wrapper-ran");
    Path wrapper = dir.resolve("mysqld-wrapper");
    Files.writeString(
        wrapper,
        "#!/bin/sh\necho \"$@\" >> '" + marker + "'\nexec '" + bundled.mysqld() + "' \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put(MySqlBinaries.MYSQLD_VARIABLE, wrapper.toString());
    env.put(MySqlBinaries.BASEDIR_VARIABLE, bundled.basedir().toString());
    // Its own cache, so the data folder template is initialized through the wrapper too.
    env.put("TIDEMARK_CACHE", dir.resolve("cache").toString());

    MySqlBinaries custom = MySqlBinaries.resolve(env);

    assertThat(custom.mysqld()).isEqualTo(wrapper);
    assertThat(custom.origin()).contains(MySqlBinaries.MYSQLD_VARIABLE);
    assertThat(custom.version()).isEqualTo(bundled.version());
    try (MySqlTopology topology = MySqlTopology.builder().binaries(custom).start()) {
      topology.source().execute("CREATE DATABASE custom", "CREATE TABLE custom.t (id INT)");
      topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
      assertThat(topology.replica().queryString("SELECT COUNT(*) FROM custom.t")).isEqualTo("0");
      assertThat(Files.readAllLines(marker))
          .anySatisfy(line -> assertThat(line).contains("--initialize-insecure"))
          .anySatisfy(line -> assertThat(line).contains("--server-id=1"))
          .anySatisfy(line -> assertThat(line).contains("--server-id=2"));
    }
  }
}
