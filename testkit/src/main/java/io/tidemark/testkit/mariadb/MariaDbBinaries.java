package io.tidemark.testkit.mariadb;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.TestkitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code mariadbd} a {@link MariaDbTopology} runs, with the base folder its messages and the
 * SQL of its system tables are found under, and the version it prints.
 *
 * @param mariadbd the server program, or a wrapper that runs it (as {@code bin/mariadb-11.8}'s runs
 *     the server it unpacked with that release's own loader and libraries)
 * @param basedir the folder above its {@code sbin} folder ({@code /usr} for Debian's package)
 * @param version as {@code mariadbd --version} prints it, such as {@code
 *     10.11.19-MariaDB-0+deb12u1}
 */
public record MariaDbBinaries(Path mariadbd, Path basedir, String version) {

  /** Names another {@code mariadbd}, such as one {@code bin/mariadb-11.8} fetched. */
  public static final String MARIADBD_VARIABLE = "TIDEMARK_MARIADBD";

  private static final Path DEBIAN = Path.of("/usr/sbin/mariadbd");

  /** Under {@code basedir/share}: MariaDB 11 renamed {@code mysql} to {@code mariadb}. */
  private static final List<String> SHARE_FOLDERS = List.of("mariadb", "mysql");

  /** The server the environment names, else Debian's. */
  public static MariaDbBinaries resolve() {
    return resolve(System.getenv());
  }

  static MariaDbBinaries resolve(Map<String, String> env) {
    String configured = env.get(MARIADBD_VARIABLE);
    Path mariadbd =
        configured != null && !configured.isBlank() ? Path.of(configured).toAbsolutePath() : DEBIAN;
    Path sbin = mariadbd.getParent();
    Path basedir = sbin == null ? null : sbin.getParent();
    if (!Files.isExecutable(mariadbd) || basedir == null) {
      throw new TestkitException(
          "no MariaDB server at "
              + mariadbd
              + ": run 'sudo apt-get install mariadb-server-core' (bin/test installs it when run"
              + " as root) or set "
              + MARIADBD_VARIABLE);
    }
    // "/usr/sbin/mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (...)",
    // "... Ver 11.8.9-MariaDB-0+deb13u1 from Debian for debian-linux-gnu on x86_64 (...)"
    String banner = Commands.run(List.of(mariadbd.toString(), "--version"), Duration.ofSeconds(30));
    String[] words = banner.trim().split("\\s+");
    int ver = List.of(words).indexOf("Ver");
    return new MariaDbBinaries(
        mariadbd, basedir, ver >= 0 && ver + 1 < words.length ? words[ver + 1] : banner.trim());
  }

  /** The major and minor version, such as {@code 10.11}. */
  public String series() {
    return version.replaceFirst("^(\\d+\\.\\d+).*", "$1");
  }

  /**
   * The folder of the server's messages and of the SQL that makes its system tables: {@code
   * share/mariadb} from MariaDB 11 on, {@code share/mysql} before.
   */
  Path share() {
    for (String name : SHARE_FOLDERS) {
      Path share = basedir.resolve("share").resolve(name);
      if (Files.isRegularFile(share.resolve("english/errmsg.sys"))) {
        return share;
      }
    }
    throw new TestkitException(
        "no share/mariadb/english/errmsg.sys or share/mysql/english/errmsg.sys under "
            + basedir
            + " for "
            + mariadbd);
  }

  /**
   * The SQL that {@code mariadb-install-db} feeds {@code mariadbd --bootstrap} to make a data
   * folder's system tables, in its order, without the test database: {@code
   * mariadb_system_tables.sql} and the like from MariaDB 11 on, {@code mysql_system_tables.sql}
   * before.
   */
  List<Path> systemTablesSql() {
    Path share = share();
    String prefix =
        Files.isRegularFile(share.resolve("mariadb_system_tables.sql")) ? "mariadb" : "mysql";
    List<Path> files = new ArrayList<>();
    for (String name :
        List.of(
            prefix + "_system_tables.sql",
            prefix + "_performance_tables.sql",
            prefix + "_system_tables_data.sql",
            "fill_help_tables.sql",
            "maria_add_gis_sp_bootstrap.sql",
            prefix + "_sys_schema.sql")) {
      Path file = share.resolve(name);
      if (!Files.isRegularFile(file)) {
        throw new TestkitException("no " + file + " to make the system tables of " + this);
      }
      files.add(file);
    }
    return files;
  }

  @Override
  public String toString() {
    return "MariaDB " + version + " (" + mariadbd + ")";
  }
}
