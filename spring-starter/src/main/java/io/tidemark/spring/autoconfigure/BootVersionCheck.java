package io.tidemark.spring.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stops the start of an application on a Spring Boot line this build of the starter was not built
 * for, before any bean is defined: there, the Boot modules the starter brings clash with the
 * application's own (the first error names a Hikari bean, neither Tidemark nor Boot). Runs before
 * refresh, and uses only what every Boot line has.
 */
final class BootVersionCheck
    implements ApplicationContextInitializer<ConfigurableApplicationContext> {

  // The line this build is for: the build for Spring Boot 3.5 (spring-starter/boot-3.5) rewrites
  // these three values, as it rewrites the packages Boot 4 moved.
  static final int MAJOR = 4;
  static final int OLDEST_MINOR = 0;
  static final String LINE = "4";

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    check(SpringBootVersion.getVersion());
  }

  /**
   * @throws TidemarkStartupException when {@code version} is not of the line this build is for
   */
  static void check(@Nullable String version) {
    if (version == null || isOfThisLine(version)) {
      return;
    }
    throw new TidemarkStartupException(
        "This build of Tidemark's starter is for Spring Boot "
            + LINE
            + "; this application runs Spring Boot "
            + version
            + ".",
        "Take the starter of the application's Boot line, in the same version of Tidemark:"
            + " tidemark-spring-boot-starter for Spring Boot 4, tidemark-spring-boot3-starter for"
            + " Spring Boot 3.5.");
  }

  private static boolean isOfThisLine(String version) {
    String[] parts = version.split("[.-]", 3);
    try {
      int major = Integer.parseInt(parts[0]);
      int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return major == MAJOR && minor >= OLDEST_MINOR;
    } catch (NumberFormatException e) {
      // A version this check cannot read is not refused on a guess.
      return true;
    }
  }
}
