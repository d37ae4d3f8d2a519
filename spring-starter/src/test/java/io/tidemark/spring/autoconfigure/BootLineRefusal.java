package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a build of the starter for one Spring Boot line says to an application on another. */
final class BootLineRefusal {

  private BootLineRefusal() {}

  /**
   * Checks that the start on Spring Boot {@code version} stops, saying the build is for {@code
   * builtFor} and naming {@code starter} as the one to take.
   */
  static void assertStopsNaming(String version, String builtFor, String starter) {
    assertThatThrownBy(() -> BootVersionCheck.check(version))
        .isInstanceOf(TidemarkStartupException.class)
        .hasMessage(
            "This build of Tidemark's starter is for "
                + builtFor
                + "; this application runs Spring Boot "
                + version
                + ".")
        .satisfies(e -> assertThat(((TidemarkStartupException) e).action()).contains(starter));
  }
}
