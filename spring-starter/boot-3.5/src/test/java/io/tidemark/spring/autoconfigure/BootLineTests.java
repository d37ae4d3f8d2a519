package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringBootVersion;

/** The build for Spring Boot 3.5 starts on that line only, and says which starter to take else. */
class BootLineTests {

  @Test
  void runsOnTheBootItWasBuiltFor() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    assertThatCode(() -> new BootVersionCheck().initialize(null)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.0", "3.5.16", "3.6.0"})
  void startsOnSpringBoot35AndLater3(String version) {
    assertThatCode(() -> BootVersionCheck.check(version)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.4.12", "3.0.0", "4.0.7", "4.1.2"})
  void anotherLineStopsTheStartNamingTheStarterToTake(String version) {
    BootLineRefusal.assertStopsNaming(
        version, "Spring Boot 3.5", "tidemark-spring-boot-starter for Spring Boot 4");
  }
}
