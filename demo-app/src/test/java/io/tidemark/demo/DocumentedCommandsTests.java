package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The commands that start the demo's classes through Maven, as the documentation and {@code
 * bin/demo} write them, start the class they are meant to.
 *
 * <p>Each command is taken from the text (the {@code ```sh} blocks of README.md and docs/*.md that
 * run {@code exec:java}, and the {@code exec ./mvnw} line of {@code bin/demo}) and run through the
 * wrapper from the repository root with every argument as written, except that the goal {@code
 * exec:java} is replaced by {@code help:effective-pom}: Maven then builds demo-app's model the way
 * {@code exec:java} would receive it, with the command's {@code -D} properties, and writes it out
 * instead of starting the servers' service. The main class is what that model configures for the
 * exec plugin, or, where it configures none, the {@code exec.mainClass} property (the plugin's
 * parameter), from the command line first. A {@code <mainClass>} written into the pom again would
 * override {@code -Dexec.mainClass} and fail this test.
 */
class DocumentedCommandsTests {

  private static final Path ROOT = Path.of("..");

  private static final String HELP = "org.apache.maven.plugins:maven-help-plugin:3.5.1";

  @Test
  void theDocumentedCommandStartsTheClassItNames(@TempDir Path temp) throws Exception {
    List<List<String>> commands = documentedCommands();
    assertThat(commands).as("```sh blocks running exec:java in README.md and docs/").isNotEmpty();
    for (List<String> command : commands) {
      String named = property(command, "exec.mainClass");
      assertThat(named).as("-Dexec.mainClass of %s", command).isNotNull();
      assertThat(mainClass(command, temp)).as("main class run by %s", command).isEqualTo(named);
      assertHasMain(named);
    }
  }

  @Test
  void binDemoStartsTheDemo(@TempDir Path temp) throws Exception {
    List<String> command = binDemoCommand();
    assertThat(property(command, "exec.mainClass")).as("bin/demo names no main class").isNull();
    assertThat(mainClass(command, temp)).isEqualTo(DemoMain.class.getName());
    assertHasMain(DemoMain.class.getName());
  }

  /** The commands of the documentation's {@code ```sh} blocks that run {@code exec:java}. */
  static List<List<String>> documentedCommands() throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    List<List<String>> commands = new ArrayList<>();
    for (Path document : documents) {
      List<String> lines = Files.readAllLines(document);
      for (int i = 0; i < lines.size(); i++) {
        if (!lines.get(i).equals("```sh")) {
          continue;
        }
        StringBuilder block = new StringBuilder();
        for (i++; i < lines.size() && !lines.get(i).equals("```"); i++) {
          block.append(lines.get(i)).append('\n');
        }
        for (String command : block.toString().replace("\\\n", " ").split("\n")) {
          List<String> words = words(command);
          if (words.contains("exec:java")) {
            assertThat(words.get(0)).as("%s: %s", document, command).isEqualTo("./mvnw");
            commands.add(words);
          }
        }
      }
    }
    return commands;
  }

  /** The Maven command of {@code bin/demo}, with {@code --exit} as the script's arguments. */
  static List<String> binDemoCommand() throws IOException {
    List<String> commands =
        Files.readAllLines(ROOT.resolve("bin/demo")).stream()
            .filter(line -> line.startsWith("exec ./mvnw "))
            .toList();
    assertThat(commands).as("the exec ./mvnw line of bin/demo").hasSize(1);
    List<String> words = words(commands.get(0).replace("$*", "--exit"));
    assertThat(words).contains("exec:java");
    return words.subList(1, words.size());
  }

  /** The main class {@code exec:java} gets from the command, resolved by Maven as it would be. */
  private static String mainClass(List<String> command, Path temp) throws Exception {
    Path output = temp.resolve("effective-pom-" + System.nanoTime() + ".xml");
    List<String> maven = new ArrayList<>();
    maven.add("./mvnw");
    maven.add("-B");
    for (String word : command.subList(1, command.size())) {
      maven.add(word.equals("exec:java") ? HELP + ":effective-pom" : word);
    }
    maven.add("-Doutput=" + output.toAbsolutePath());
    Path log = temp.resolve("maven.log");
    Process process =
        new ProcessBuilder(maven)
            .directory(ROOT.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!process.waitFor(90, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(maven + " did not end within 90 s");
    }
    assertThat(process.exitValue())
        .as("exit code of %s, which printed:%n%s", maven, Files.readString(log))
        .isZero();

    Element project =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(output.toFile())
            .getDocumentElement();
    Element exec = execPlugin(project);
    assertThat(exec).as("exec-maven-plugin in demo-app's build").isNotNull();
    String configured = text(child(exec, "configuration"), "mainClass");
    if (configured != null) {
      return configured;
    }
    String fromCommandLine = property(command, "exec.mainClass");
    if (fromCommandLine != null) {
      return fromCommandLine;
    }
    String property = text(child(project, "properties"), "exec.mainClass");
    assertThat(property).as("main class of exec:java in demo-app").isNotNull();
    return property;
  }

  private static @Nullable Element execPlugin(Element project) {
    Element plugins = child(child(project, "build"), "plugins");
    if (plugins == null) {
      return null;
    }
    for (Node node = plugins.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element plugin
          && "exec-maven-plugin".equals(text(plugin, "artifactId"))) {
        return plugin;
      }
    }
    return null;
  }

  private static void assertHasMain(String className) throws ClassNotFoundException {
    Method main;
    try {
      main = Class.forName(className).getMethod("main", String[].class);
    } catch (NoSuchMethodException e) {
      throw new AssertionError(className + " has no main(String[])", e);
    }
    assertThat(Modifier.isStatic(main.getModifiers())).as("%s static", main).isTrue();
  }

  /** The value of {@code -Dname=value} in a command, or null. */
  private static @Nullable String property(List<String> command, String name) {
    String prefix = "-D" + name + "=";
    return command.stream()
        .filter(word -> word.startsWith(prefix))
        .map(word -> word.substring(prefix.length()))
        .reduce((first, second) -> second)
        .orElse(null);
  }

  /** The words of a shell command line: blanks split, quotes group and are removed. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else if (c == '#' && word == null) {
        break;
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    assertThat(quote).as("unclosed quote in %s", line).isEqualTo((char) 0);
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  private static @Nullable Element child(@Nullable Element parent, String name) {
    if (parent == null) {
      return null;
    }
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        return element;
      }
    }
    return null;
  }

  private static @Nullable String text(@Nullable Element parent, String name) {
    Element element = child(parent, name);
    return element == null ? null : element.getTextContent().strip();
  }
}
