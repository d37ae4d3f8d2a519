package io.tidemark.testkit.mariadb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.TestkitException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MariaDbBinariesTests {

  @Test
  void aMissingServerIsRefusedNamingThePackagesAndTheSetting() {
    assertThatThrownBy(
            () ->
                MariaDbBinaries.resolve(
                    Map.of(MariaDbBinaries.MARIADBD_VARIABLE, "/nonexistent/sbin/mariadbd")))
        .isInstanceOf(TestkitException.class)
        .hasMessageContaining("/nonexistent/sbin/mariadbd")
        .hasMessageContaining("mariadb-server-core")
        .hasMessageContaining(MariaDbBinaries.MARIADBD_VARIABLE);
  }

  /** As bin/mariadb-11.8 unpacks it: a wrapper in usr/sbin, its banner naming the builder. */
  @Test
  void aWrapperInSbinHasTheFolderAboveAsBaseAndItsBannersVersion(@TempDir Path dir)
      throws IOException {
    Path wrapper = dir.resolve("usr/sbin/mariadbd-wrapper");
    Files.createDirectories(wrapper.getParent());
    Files.writeString(
        wrapper,
        "#!/bin/sh\necho '/x/usr/sbin/mariadbd  Ver 11.8.9-MariaDB-0+deb13u1 from Debian for"
            + " debian-linux-gnu on x86_64 (Debian)'\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));

    MariaDbBinaries binaries =
        MariaDbBinaries.resolve(Map.of(MariaDbBinaries.MARIADBD_VARIABLE, wrapper.toString()));

    assertThat(binaries.basedir()).isEqualTo(dir.resolve("usr"));
    assertThat(binaries.version()).isEqualTo("11.8.9-MariaDB-0+deb13u1");
    assertThat(binaries.series()).isEqualTo("11.8");
  }

  /** From 11 on in share/mariadb, named mariadb_*; before, in share/mysql, named after MySQL. */
  @ParameterizedTest(name = "MariaDB {0}: share/{1}, {1}_system_tables.sql and the like")
  @CsvSource({"11.8.9, mariadb", "10.11.19, mysql"})
  void theSystemTablesSqlIsInShareMariadbFrom11AndInShareMysqlBefore(
      String version, String name, @TempDir Path usr) throws IOException {
    Path share = usr.resolve("share/" + name);
    layout(share, name);

    MariaDbBinaries binaries = new MariaDbBinaries(usr.resolve("sbin/mariadbd"), usr, version);

    assertThat(binaries.share()).isEqualTo(share);
    assertThat(binaries.systemTablesSql()).containsExactlyElementsOf(systemTablesSql(share, name));
  }

  @Test
  void aMissingFileOfTheSystemTablesIsNamed(@TempDir Path usr) throws IOException {
    Path share = usr.resolve("share/mariadb");
    layout(share, "mariadb");
    Files.delete(share.resolve("mariadb_sys_schema.sql"));

    MariaDbBinaries binaries = new MariaDbBinaries(usr.resolve("sbin/mariadbd"), usr, "11.8.9");

    assertThatThrownBy(binaries::systemTablesSql)
        .isInstanceOf(TestkitException.class)
        .hasMessageContaining(share.resolve("mariadb_sys_schema.sql").toString());
  }

  @Test
  void withoutMessagesThereIsNoShareFolder(@TempDir Path usr) {
    MariaDbBinaries binaries = new MariaDbBinaries(usr.resolve("sbin/mariadbd"), usr, "11.8.9");

    assertThatThrownBy(binaries::share)
        .isInstanceOf(TestkitException.class)
        .hasMessageContaining("errmsg.sys")
        .hasMessageContaining(usr.toString());
  }

  @Test
  void theSeriesIsTheMajorAndMinorOfTheVersion() {
    MariaDbBinaries binaries =
        new MariaDbBinaries(
            Path.of("/usr/sbin/mariadbd"), Path.of("/usr"), "10.11.19-MariaDB-0+deb12u1");

    assertThat(binaries.series()).isEqualTo("10.11");
  }

  /**
   * The files {@code mariadb-install-db} feeds the server from a share folder whose files are named
   * after {@code prefix}, in its order.
   */
  private static List<Path> systemTablesSql(Path share, String prefix) {
    return List.of(
        share.resolve(prefix + "_system_tables.sql"),
        share.resolve(prefix + "_performance_tables.sql"),
        share.resolve(prefix + "_system_tables_data.sql"),
        share.resolve("fill_help_tables.sql"),
        share.resolve("maria_add_gis_sp_bootstrap.sql"),
        share.resolve(prefix + "_sys_schema.sql"));
  }

  /** A share folder with the messages, those files and the test database's, which is not fed. */
  private static void layout(Path share, String prefix) throws IOException {
    Files.createDirectories(share.resolve("english"));
    Files.writeString(share.resolve("english/errmsg.sys"), "");
    for (Path file : systemTablesSql(share, prefix)) {
      Files.writeString(file, "");
    }
    Files.writeString(share.resolve(prefix + "_test_db.sql"), "");
  }
}
