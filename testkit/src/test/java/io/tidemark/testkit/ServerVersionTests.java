package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerVersionTests {

  @Test
  void readsVersionFromMysqldBanner() {
    ServerVersion version =
        ServerVersion.parse("Ver 8.0.15 for linux-glibc2.12 on x86_64 (MySQL Community Server)");

    assertThat(version).isEqualTo(new ServerVersion(8, 0, 15));
    assertThat(version).hasToString("8.0.15");
  }

  @Test
  void comparesComponentsNumerically() {
    ServerVersion version = new ServerVersion(8, 0, 23);

    assertThat(version.atLeast(8, 0, 23)).isTrue();
    assertThat(version.atLeast(8, 0, 9)).isTrue();
    assertThat(version.atLeast(8, 4, 0)).isFalse();
    assertThat(new ServerVersion(9, 1, 0).atLeast(8, 4, 10)).isTrue();
  }

  @Test
  void rejectsTextWithoutVersion() {
    assertThatThrownBy(() -> ServerVersion.parse("mysqld: not found"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mysqld: not found");
  }
}
