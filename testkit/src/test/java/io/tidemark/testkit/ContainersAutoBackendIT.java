package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** With a Docker API answering, {@code auto} chooses containers. Runs with the engine only. */
class ContainersAutoBackendIT {

  @Test
  void autoChoosesContainersWhenTheEngineAnswers() {
    String before = System.getProperty(Backend.SETTING);
    System.setProperty(Backend.SETTING, "auto");
    try {
      assertThat(Backend.configured()).isEqualTo(Backend.CONTAINERS);
    } finally {
      if (before == null) {
        System.clearProperty(Backend.SETTING);
      } else {
        System.setProperty(Backend.SETTING, before);
      }
    }
  }
}
