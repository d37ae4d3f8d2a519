package io.tidemark.testkit.mariadb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.TestkitException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

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

  @Test
  void theSeriesIsTheMajorAndMinorOfTheVersion() {
    MariaDbBinaries binaries =
        new MariaDbBinaries(
            Path.of("/usr/sbin/mariadbd"), Path.of("/usr"), "10.11.19-MariaDB-0+deb12u1");

    assertThat(binaries.series()).isEqualTo("10.11");
  }
}
