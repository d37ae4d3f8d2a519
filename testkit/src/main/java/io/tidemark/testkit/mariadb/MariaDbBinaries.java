package io.tidemark.testkit.mariadb;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.TestkitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The {@code mariadbd} a {@link MariaDbTopology} runs, with the base folder its {@code
 * mariadb-install-db} and messages are found under, and the version it prints.
 *
 * @param mariadbd the server program
 * @param basedir the folder above its {@code sbin} folder ({@code /usr} for Debian's package)
 * @param version as {@code mariadbd --version} prints it, such as {@code
 *     10.11.19-MariaDB-0+deb12u1}
 */
public record MariaDbBinaries(Path mariadbd, Path basedir, String version) {

  /** Names another {@code mariadbd}, such as one {@code bin/mariadb-11.8} fetched. */
  public static final String MARIADBD_VARIABLE = "TIDEMARK_MARIADBD";

  private static final Path DEBIAN = Path.of("/usr/sbin/mariadbd");

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
              + ": run 'sudo apt-get install mariadb-server-core mariadb-client-core' (bin/test"
              + " installs them when run as root) or set "
              + MARIADBD_VARIABLE);
    }
    // "/usr/sbin/mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (...)"
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

  Path installDb() {
    return basedir.resolve("bin/mariadb-install-db");
  }

  @Override
  public String toString() {
    return "MariaDB " + version + " (" + mariadbd + ")";
  }
}
