package io.tidemark.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The module that runs the starter's tests on the next Spring Boot line lists the starter's
 * dependencies again, under another parent: the two lists must stay the same.
 */
class NextBootLineModuleTests {

  private static final Pattern DEPENDENCY =
      Pattern.compile(
          "<dependency>\\s*(?:<!--.*?-->\\s*)?<groupId>([^<]+)</groupId>\\s*"
              + "<artifactId>([^<]+)</artifactId>(.*?)</dependency>",
          Pattern.DOTALL);
  private static final Pattern SCOPE = Pattern.compile("<(scope|optional|type)>([^<]+)</\\1>");

  @Test
  void listsTheStartersDependencies() throws IOException {
    List<String> starter = dependencies(Path.of("pom.xml"));
    assertThat(starter).hasSizeGreaterThan(10);
    assertThat(dependencies(Path.of("boot-4.1/pom.xml"))).isEqualTo(starter);
  }

  /** Each dependency as group:artifact with its scope, optional flag and type. */
  private static List<String> dependencies(Path pom) throws IOException {
    String xml = Files.readString(pom);
    String section = xml.substring(xml.indexOf("<dependencies>"), xml.indexOf("</dependencies>"));
    List<String> found = new ArrayList<>();
    Matcher dependency = DEPENDENCY.matcher(section);
    while (dependency.find()) {
      StringBuilder entry =
          new StringBuilder(dependency.group(1)).append(':').append(dependency.group(2));
      Matcher attribute = SCOPE.matcher(dependency.group(3));
      while (attribute.find()) {
        entry.append(' ').append(attribute.group(1)).append('=').append(attribute.group(2));
      }
      found.add(entry.toString());
    }
    return found;
  }
}
