package io.tidemark.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each published jar names its module for the module path ({@code Automatic-Module-Name}): core,
 * the testkit and the starter, as the build running this test packaged them (the starter on the
 * Spring Boot line this build is for).
 */
class ModuleNamesIT {

  @Test
  void everyPublishedJarNamesItsModule() throws IOException {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("core/pom.xml"))) {
      root = root.getParent();
      assertThat(root).as("the project's root, above " + Path.of("").toAbsolutePath()).isNotNull();
    }

    assertThat(moduleName(root.resolve("core/target"), "tidemark-core-"))
        .isEqualTo("io.tidemark.core");
    assertThat(moduleName(root.resolve("testkit/target"), "tidemark-testkit-"))
        .isEqualTo("io.tidemark.testkit");
    assertThat(moduleName(Path.of("target"), "tidemark-spring-boot-starter-"))
        .isEqualTo("io.tidemark.spring");
  }

  /** The module name in the manifest of the one main jar in {@code folder} named {@code prefix}. */
  private static String moduleName(Path folder, String prefix) throws IOException {
    List<Path> jars;
    try (Stream<Path> files = Files.list(folder)) {
      jars =
          files
              .filter(
                  file -> {
                    String name = file.getFileName().toString();
                    return name.startsWith(prefix)
                        && name.endsWith(".jar")
                        && !name.matches(".*-(tests|sources|javadoc)\\.jar");
                  })
              .toList();
    }
    assertThat(jars).as("the main jar of " + folder).hasSize(1);
    try (JarFile jar = new JarFile(jars.get(0).toFile())) {
      return jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
    }
  }
}
