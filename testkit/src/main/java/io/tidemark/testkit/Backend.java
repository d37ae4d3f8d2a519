package io.tidemark.testkit;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Where the testkit runs its servers. Chosen by the setting {@code tidemark.testkit.backend} (a
 * system property, else the environment variable {@code TIDEMARK_TESTKIT_BACKEND}): {@code
 * processes} (the default), {@code containers}, or {@code auto} (containers when a Docker API
 * answers, else processes).
 */
public enum Backend {
  /** Local processes of server binaries on this machine: the default. */
  PROCESSES,
  /**
   * Containers of a Docker engine (Docker, or Podman's Docker API) through Testcontainers, on the
   * host's network: every server still listens on a loopback port.
   */
  CONTAINERS;

  /** The setting that chooses the backend. */
  public static final String SETTING = "tidemark.testkit.backend";

  /** The setting that names the MySQL image of the container backend. */
  public static final String MYSQL_IMAGE_SETTING = "tidemark.testkit.mysql-image";

  /** The MySQL image when none is set: built by {@code bin/test-images} from Debian's packages. */
  public static final String DEFAULT_MYSQL_IMAGE = "tidemark-test/mysql:9.7";

  /** The setting that names the Redis image of the container backend. */
  public static final String REDIS_IMAGE_SETTING = "tidemark.testkit.redis-image";

  /** The Redis image when none is set: built by {@code bin/test-images} from Debian's packages. */
  public static final String DEFAULT_REDIS_IMAGE = "tidemark-test/redis:7";

  /**
   * The backend the setting names.
   *
   * @throws IllegalArgumentException for a value other than processes, containers or auto
   */
  public static Backend configured() {
    String value = setting(SETTING);
    if (value == null || value.isBlank()) {
      return PROCESSES;
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "processes" -> PROCESSES;
      case "containers" -> CONTAINERS;
      case "auto" -> ContainerEngine.answers() ? CONTAINERS : PROCESSES;
      default ->
          throw new IllegalArgumentException(
              SETTING + " must be processes, containers or auto, not " + value);
    };
  }

  /**
   * The MySQL image of the container backend: the setting's, else {@value #DEFAULT_MYSQL_IMAGE}.
   */
  public static String mysqlImage() {
    String value = setting(MYSQL_IMAGE_SETTING);
    return value == null || value.isBlank() ? DEFAULT_MYSQL_IMAGE : value.trim();
  }

  /**
   * The Redis image of the container backend: the setting's, else {@value #DEFAULT_REDIS_IMAGE}.
   */
  public static String redisImage() {
    String value = setting(REDIS_IMAGE_SETTING);
    return value == null || value.isBlank() ? DEFAULT_REDIS_IMAGE : value.trim();
  }

  /** A system property, else the environment variable of the same name in upper snake case. */
  static @Nullable String setting(String name) {
    String value = System.getProperty(name);
    if (value != null) {
      return value;
    }
    return System.getenv(name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
  }
}
