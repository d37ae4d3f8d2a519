package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BackendTests {

  private final String before = System.getProperty(Backend.SETTING);

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(Backend.SETTING);
    } else {
      System.setProperty(Backend.SETTING, before);
    }
  }

  @Test
  void theSettingNamesTheBackendInAnyCase() {
    System.setProperty(Backend.SETTING, " Containers ");
    assertThat(Backend.configured()).isEqualTo(Backend.CONTAINERS);
    System.setProperty(Backend.SETTING, "processes");
    assertThat(Backend.configured()).isEqualTo(Backend.PROCESSES);
  }

  @Test
  void anUnknownBackendIsATypedErrorNamingTheSetting() {
    System.setProperty(Backend.SETTING, "docker");
    assertThatThrownBy(Backend::configured)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tidemark.testkit.backend must be processes, containers or auto, not docker");
  }

  @Test
  void imagesDefaultToTheLocallyBuiltOnes() {
    assertThat(Backend.mysqlImage())
        .isEqualTo(
            System.getenv()
                .getOrDefault("TIDEMARK_TESTKIT_MYSQL_IMAGE", Backend.DEFAULT_MYSQL_IMAGE));
    System.setProperty(Backend.REDIS_IMAGE_SETTING, "redis:7");
    try {
      assertThat(Backend.redisImage()).isEqualTo("redis:7");
    } finally {
      System.clearProperty(Backend.REDIS_IMAGE_SETTING);
    }
  }
}
