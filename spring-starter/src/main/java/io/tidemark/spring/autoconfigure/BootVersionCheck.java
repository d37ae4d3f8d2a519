package io.tidemark.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stops the start of an application on a Spring Boot older than the starter was built for, before
 * any bean is defined: there, the Boot modules the starter brings clash with the application's own
 * (the first error names a Hikari bean, neither Tidemark nor Boot). Runs before refresh, and uses
 * only what every Boot line has.
 */
final class BootVersionCheck
    implements ApplicationContextInitializer<ConfigurableApplicationContext> {

  /** The oldest Spring Boot major version the starter runs on. */
  static final int OLDEST_MAJOR = 4;

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    check(SpringBootVersion.getVersion());
  }

  /**
   * @throws TidemarkStartupException when {@code version} is older than {@link #OLDEST_MAJOR}
   */
  static void check(@Nullable String version) {
    if (version == null || major(version) >= OLDEST_MAJOR) {
      return;
    }
    throw new TidemarkStartupException(
        "Tidemark's starter is for Spring Boot "
            + OLDEST_MAJOR
            + ".0 and later; this application runs Spring Boot "
            + version
            + ".",
        "Upgrade the application to Spring Boot "
            + OLDEST_MAJOR
            + ".0 or later, or leave tidemark-spring-boot-starter out of it: Tidemark has no build"
            + " for Spring Boot 3 yet.");
  }

  private static int major(String version) {
    int dot = version.indexOf('.');
    try {
      return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
    } catch (NumberFormatException e) {
      // A version this check cannot read is not refused on a guess.
      return OLDEST_MAJOR;
    }
  }
}
