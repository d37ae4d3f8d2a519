package io.tidemark.testkit.postgres;

import io.tidemark.testkit.Commands;
import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The PostgreSQL server programs the testkit runs: {@code TIDEMARK_PG_BINDIR} when set, else the
 * newest major of Debian's {@code /usr/lib/postgresql/<major>/bin} ({@code bin/test} installs
 * {@code postgresql}).
 *
 * @param bindir the folder of {@code postgres}, {@code initdb}, {@code pg_basebackup}
 * @param version what {@code postgres --version} printed, e.g. {@code 15.18}
 */
public record PostgresBinaries(Path bindir, String version) {

  private static final Path DEBIAN = Path.of("/usr/lib/postgresql");

  /** The binaries the environment names, else Debian's newest. */
  public static PostgresBinaries resolve() {
    return resolve(System.getenv(), DEBIAN);
  }

  static PostgresBinaries resolve(Map<String, String> env, Path debian) {
    String configured = env.get("TIDEMARK_PG_BINDIR");
    Path bindir =
        configured != null && !configured.isBlank() ? Path.of(configured) : newest(debian);
    Path postgres = bindir.resolve("postgres");
    if (!Files.isExecutable(postgres)) {
      throw new TestkitException(
          "no PostgreSQL server at "
              + postgres
              + ": run 'sudo apt-get install postgresql' (bin/test installs it when run as root)"
              + " or set TIDEMARK_PG_BINDIR");
    }
    String banner = Commands.run(List.of(postgres.toString(), "--version"), Duration.ofSeconds(30));
    // "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
    String[] words = banner.trim().split("\\s+");
    return new PostgresBinaries(bindir, words.length > 2 ? words[2] : banner.trim());
  }

  private static Path newest(Path debian) {
    try (Stream<Path> majors = Files.list(debian)) {
      return majors
          .filter(m -> m.getFileName().toString().matches("\\d+"))
          .filter(m -> Files.isExecutable(m.resolve("bin/postgres")))
          .max(Comparator.comparingInt(m -> Integer.parseInt(m.getFileName().toString())))
          .map(m -> m.resolve("bin"))
          .orElse(debian.resolve("none/bin"));
    } catch (IOException e) {
      return debian.resolve("none/bin");
    }
  }

  Path program(String name) {
    return bindir.resolve(name);
  }

  /** The major version, e.g. 15; 19 for a release candidate such as 19rc1. */
  public int major() {
    return Integer.parseInt(version.replaceFirst("^(\\d+).*", "$1"));
  }

  @Override
  public String toString() {
    return "PostgreSQL " + version + " (" + bindir + ")";
  }
}
