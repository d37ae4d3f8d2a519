package io.tidemark.testkit.mysql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.TestkitException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MySqlBinariesTests {

  @Test
  void rejectsAServerPathThatIsNotExecutable(@TempDir Path dir) {
    Path missing = dir.resolve("no-such-mysqld");

    assertThatThrownBy(
            () -> MySqlBinaries.resolve(Map.of(MySqlBinaries.MYSQLD_VARIABLE, missing.toString())))
        .isInstanceOf(TestkitException.class)
        .hasMessageContaining("TIDEMARK_MYSQLD=" + missing)
        .hasMessageContaining("not an executable file");
  }
}
