package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringBootVersion;

class BootVersionCheckTests {

  @ParameterizedTest
  @ValueSource(strings = {"3.5.16", "3.5.7", "3.0.0", "2.7.18", "5.0.0"})
  void anotherBootLineStopsTheStartNamingItsVersionAndTheStarterToTake(String version) {
    BootLineRefusal.assertStopsNaming(
        version, "Spring Boot 4", "tidemark-spring-boot3-starter for Spring Boot 3.5");
  }

  @ParameterizedTest
  @ValueSource(strings = {"4.0.7", "4.1.2", "4.2.0-SNAPSHOT", "4", "snapshot"})
  void theBootLineItWasBuiltForAndWhatItCannotReadStart(String version) {
    assertThatCode(() -> BootVersionCheck.check(version)).doesNotThrowAnyException();
    assertThatCode(() -> BootVersionCheck.check(null)).doesNotThrowAnyException();
  }

  @Test
  void theBootOfThisBuildStarts() {
    assertThatCode(() -> new BootVersionCheck().initialize(null)).doesNotThrowAnyException();
    assertThatCode(() -> BootVersionCheck.check(SpringBootVersion.getVersion()))
        .doesNotThrowAnyException();
  }
}
