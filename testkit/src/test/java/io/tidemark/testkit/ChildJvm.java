package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A JVM that a test starts to kill or to let end: it runs a main class of the tests on this JVM's
 * class path and reports what it started in its first line.
 */
public final class ChildJvm {

  private ChildJvm() {}

  /** How to start a JVM running {@code main} on this JVM's class path, its errors to ours. */
  public static ProcessBuilder running(Class<?> main) {
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            main.getName())
        .redirectError(Redirect.INHERIT);
  }

  /**
   * The words of the first line {@code child} prints, which must report {@code what} it started by
   * beginning with {@code first}.
   */
  public static String[] report(Process child, String what, String first) throws IOException {
    String line =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    assertThat(line).as("child reports its " + what).startsWith(first);
    return line.split(" ");
  }
}
