package io.tidemark.testkit.mysql;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.FileTrees;
import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An initialized data folder ({@code mysqld --initialize-insecure}) kept in the cache and copied
 * for each server, which saves seconds per server at start. The copy loses {@code auto.cnf}, so
 * every server gets its own {@code server_uuid} on first start.
 */
final class DataDirectoryTemplate {

  /** Bump when the recipe below changes, so old cached templates are not reused. */
  private static final int RECIPE = 1;

  private static final String INIT_SQL =
      """
      CREATE USER 'root'@'127.0.0.1';
      GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
      CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s';
      GRANT REPLICATION SLAVE ON *.* TO '%s'@'127.0.0.1';
      """
          .formatted(
              MySqlServerProcess.REPLICATION_USER,
              MySqlServerProcess.REPLICATION_PASSWORD,
              MySqlServerProcess.REPLICATION_USER);

  private DataDirectoryTemplate() {}

  /** Options that must be the same at initialization and at every start. */
  static List<String> storageOptions(MySqlBinaries binaries) {
    List<String> options = new ArrayList<>();
    if (!binaries.version().atLeast(8, 0, 30)) {
      // Smaller redo logs make the template (and each copy) a third of the default size.
      options.add("--innodb-log-file-size=8M");
    }
    return options;
  }

  /** Copies a fresh data folder to {@code target} (which must not exist). */
  static void copyTo(MySqlBinaries binaries, Path target) {
    Path template =
        binaries
            .cache()
            .entry(
                "datadir-" + binaries.version() + "-" + Integer.toHexString(key(binaries)),
                scratch -> initialize(binaries, scratch));
    try {
      FileTrees.copyRecursively(template.resolve("data"), target);
    } catch (IOException e) {
      throw new TestkitException("cannot copy data folder template to " + target, e);
    }
  }

  private static int key(MySqlBinaries binaries) {
    return (binaries.mysqld() + "|" + binaries.basedir() + "|" + RECIPE).hashCode();
  }

  private static void initialize(MySqlBinaries binaries, Path scratch) throws IOException {
    Path init = scratch.resolve("init.sql");
    Files.writeString(init, INIT_SQL);
    List<String> command = new ArrayList<>();
    command.add(binaries.mysqld().toString());
    command.add("--no-defaults");
    command.addAll(storageOptions(binaries));
    command.add("--initialize-insecure");
    command.add("--basedir=" + binaries.basedir());
    command.add("--datadir=" + scratch.resolve("data"));
    command.add("--init-file=" + init);
    command.add("--log-error=" + scratch.resolve("initialize.err"));
    if (Commands.RUNNING_AS_ROOT) {
      command.add("--user=root");
    }
    try {
      Commands.run(command, Duration.ofMinutes(3));
    } catch (TestkitException e) {
      Path log = scratch.resolve("initialize.err");
      String detail = Files.exists(log) ? Files.readString(log) : "(no log)";
      throw new TestkitException(e.getMessage() + "\n" + detail, e);
    }
    Files.delete(scratch.resolve("data/auto.cnf"));
  }
}
