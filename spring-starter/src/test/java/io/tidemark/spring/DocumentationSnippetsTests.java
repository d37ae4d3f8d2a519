package io.tidemark.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Every code sample of the documentation (README.md and docs/*.md) comes from a source that is
 * compiled and tested.
 *
 * <p>A {@code java} block (and any block at all that says where it comes from) is preceded by a
 * line {@code <!-- snippet: module/src/test/java/.../File.java#tag -->}; in that file the region
 * sits between the lines {@code // tag::tag[]} and {@code // end::tag[]} ({@code #}, {@code --} or
 * {@code <!-- -->} comments in other languages), and the block is that region with its common
 * indentation removed. An {@code xml} block without a marker must be the dependency on a module of
 * this build, at the build's version; every key of a {@code properties} block without a marker must
 * exist (the {@code tidemark.*} ones in the table of docs/configuration.md, which {@code
 * ConfigurationPropertiesDocumentationTests} checks against the metadata, the others in Spring
 * Boot's metadata); a {@code sh} block may only run scripts of {@code bin/} that exist, with
 * options they know. Links between the documents must reach a file and, with an anchor, a heading
 * of it.
 */
class DocumentationSnippetsTests {

  private static final Path ROOT = Path.of("..");

  private static final Path CONFIGURATION = ROOT.resolve("docs/configuration.md");

  private static final Pattern FENCE = Pattern.compile("^```(\\S*)\\s*$");

  private static final Pattern MARKER = Pattern.compile("^<!-- snippet: (\\S+?)#(\\S+) -->$");

  private static final Pattern TAG =
      Pattern.compile("^\\s*(?://|#|<!--|--)\\s*(tag|end)::([\\w.-]+)\\[\\]\\s*(?:-->)?\\s*$");

  private static final Pattern PROPERTY_KEY = Pattern.compile("^([^=:#!\\s]+)\\s*[=:].*$");

  /** Languages whose blocks must always come from a tagged source region. */
  private static final Set<String> MARKED_LANGUAGES = Set.of("java", "yaml", "yml");

  /** A fenced code block: where it starts, its language, its text, and its marker if any. */
  record Block(Path file, int line, String language, String text, @Nullable Snippet snippet) {

    String where() {
      return ROOT.relativize(file).normalize() + ":" + line;
    }
  }

  /** A marker: the source file (from the repository root) and the tag of the region. */
  record Snippet(String source, String tag) {}

  @Test
  void documentsAreFound() throws IOException {
    assertThat(documents()).contains(ROOT.resolve("README.md"), CONFIGURATION);
  }

  @Test
  void everyJavaBlockNamesItsSource() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Block block : blocks()) {
      if (MARKED_LANGUAGES.contains(block.language()) && block.snippet() == null) {
        problems.add(
            block.where()
                + ": ```"
                + block.language()
                + " block without a <!-- snippet: <file>#<tag> --> line right before it");
      }
    }
    assertNoProblems(problems);
  }

  @Test
  void everyMarkedBlockIsItsTaggedRegion() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Block block : blocks()) {
      Snippet snippet = block.snippet();
      if (snippet == null) {
        continue;
      }
      Path source = ROOT.resolve(snippet.source());
      if (!Files.isRegularFile(source)) {
        problems.add(block.where() + ": snippet source " + snippet.source() + " does not exist");
        continue;
      }
      List<String> region;
      try {
        region = region(source, snippet.tag());
      } catch (IllegalArgumentException e) {
        problems.add(block.where() + ": " + e.getMessage());
        continue;
      }
      String expected = String.join("\n", dedent(region));
      if (!expected.equals(block.text())) {
        problems.add(
            block.where()
                + ": differs from "
                + snippet.source()
                + "#"
                + snippet.tag()
                + ": "
                + diff(expected, block));
      }
    }
    assertNoProblems(problems);
  }

  @Test
  void everyMarkerIsRightBeforeABlock() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Path document : documents()) {
      List<String> lines = Files.readAllLines(document);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).startsWith("<!-- snippet:")) {
          boolean wellFormed = MARKER.matcher(lines.get(i)).matches();
          boolean beforeBlock = i + 1 < lines.size() && lines.get(i + 1).startsWith("```");
          if (!wellFormed || !beforeBlock) {
            problems.add(
                ROOT.relativize(document).normalize()
                    + ":"
                    + (i + 1)
                    + ": a snippet line must read <!-- snippet: <file>#<tag> --> and stand right"
                    + " before a ``` line");
          }
        }
      }
    }
    assertNoProblems(problems);
  }

  @Test
  void everyDependencyBlockNamesAModuleAtTheBuildsVersion() throws Exception {
    Element root = pom(ROOT.resolve("pom.xml"));
    String groupId = child(root, "groupId");
    String version = child(root, "version");
    Set<String> artifacts = new HashSet<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path pom :
          modules.map(m -> m.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
        artifacts.add(child(pom(pom), "artifactId"));
      }
    }
    List<String> problems = new ArrayList<>();
    for (Block block : blocks()) {
      if (!block.language().equals("xml") || block.snippet() != null) {
        continue;
      }
      Element dependency;
      try {
        dependency =
            DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(block.text().getBytes(StandardCharsets.UTF_8)))
                .getDocumentElement();
      } catch (org.xml.sax.SAXException e) {
        problems.add(block.where() + ": not well-formed XML: " + e.getMessage());
        continue;
      }
      if (!dependency.getTagName().equals("dependency")
          || !groupId.equals(child(dependency, "groupId"))
          || !artifacts.contains(child(dependency, "artifactId"))
          || !version.equals(child(dependency, "version"))) {
        problems.add(
            block.where()
                + ": an xml block without a snippet line must be a <dependency> on one of "
                + artifacts
                + " with groupId "
                + groupId
                + " and version "
                + version);
      }
    }
    assertNoProblems(problems);
  }

  @Test
  void everyPropertyOfAPropertiesBlockExists() throws IOException {
    Set<String> documented = documentedProperties();
    Set<String> known = springBootProperties();
    List<String> problems = new ArrayList<>();
    for (Block block : blocks()) {
      if (!block.language().equals("properties") || block.snippet() != null) {
        continue;
      }
      String[] lines = block.text().split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i].strip();
        if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
          continue;
        }
        Matcher key = PROPERTY_KEY.matcher(line);
        String name = key.matches() ? key.group(1).replaceAll("\\[\\d+]", "[N]") : line;
        boolean exists =
            name.startsWith("tidemark.") ? documented.contains(name) : known.contains(name);
        if (!exists) {
          problems.add(
              ROOT.relativize(block.file()).normalize()
                  + ":"
                  + (block.line() + 1 + i)
                  + ": "
                  + name
                  + (name.startsWith("tidemark.")
                      ? " is not in the table of " + CONFIGURATION
                      : " is not in Spring Boot's configuration metadata"));
        }
      }
    }
    assertNoProblems(problems);
  }

  @Test
  void everyScriptOfAShellBlockExistsWithItsOptions() throws IOException {
    Pattern script = Pattern.compile("^(bin/[\\w.-]+)(.*)$");
    Pattern option = Pattern.compile("(?<![\\w-])(--[a-z][\\w-]*)");
    List<String> problems = new ArrayList<>();
    for (Block block : blocks()) {
      if (!block.language().equals("sh") || block.snippet() != null) {
        continue;
      }
      String[] lines = block.text().split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        String command = lines[i].replaceFirst("#.*$", "").strip();
        Matcher matcher = script.matcher(command);
        if (!matcher.matches()) {
          continue;
        }
        String where = ROOT.relativize(block.file()).normalize() + ":" + (block.line() + 1 + i);
        Path file = ROOT.resolve(matcher.group(1));
        if (!Files.isRegularFile(file) || !Files.isExecutable(file)) {
          problems.add(where + ": " + matcher.group(1) + " is not an executable script");
          continue;
        }
        String text = Files.readString(file);
        Matcher options = option.matcher(matcher.group(2));
        while (options.find()) {
          if (!text.contains(options.group(1))) {
            problems.add(where + ": " + matcher.group(1) + " knows no " + options.group(1));
          }
        }
      }
    }
    assertNoProblems(problems);
  }

  @Test
  void everyLinkBetweenDocumentsResolves() throws IOException {
    Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    List<String> problems = new ArrayList<>();
    for (Path document : documents()) {
      List<String> lines = Files.readAllLines(document);
      boolean inBlock = false;
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).startsWith("```")) {
          inBlock = !inBlock;
        }
        Matcher matcher = link.matcher(lines.get(i));
        while (!inBlock && matcher.find()) {
          String target = matcher.group(1);
          if (target.matches("^[a-z]+:.*")) {
            continue;
          }
          int hash = target.indexOf('#');
          String file = hash < 0 ? target : target.substring(0, hash);
          Path linked = file.isEmpty() ? document : document.resolveSibling(file).normalize();
          String where = ROOT.relativize(document).normalize() + ":" + (i + 1) + ": " + target;
          if (!Files.exists(linked)) {
            problems.add(where + ": no such file");
          } else if (hash >= 0 && !anchors(linked).contains(target.substring(hash + 1))) {
            problems.add(where + ": no such heading in " + ROOT.relativize(linked).normalize());
          }
        }
      }
    }
    assertNoProblems(problems);
  }

  /** The anchors GitHub gives the headings of a Markdown file. */
  private static Set<String> anchors(Path markdown) throws IOException {
    Set<String> anchors = new HashSet<>();
    boolean inBlock = false;
    for (String line : Files.readAllLines(markdown)) {
      if (line.startsWith("```")) {
        inBlock = !inBlock;
      } else if (!inBlock && line.startsWith("#")) {
        anchors.add(
            line.replaceFirst("^#+\\s*", "")
                .strip()
                .toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-'));
      }
    }
    return anchors;
  }

  // The documents and their blocks.

  static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  static List<Block> blocks() throws IOException {
    List<Block> blocks = new ArrayList<>();
    for (Path document : documents()) {
      blocks.addAll(blocks(document));
    }
    return blocks;
  }

  /** The fenced blocks of one document; the line of a block is that of its opening fence. */
  static List<Block> blocks(Path document) throws IOException {
    List<String> lines = Files.readAllLines(document);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher fence = FENCE.matcher(lines.get(i));
      if (!fence.matches()) {
        continue;
      }
      int end = i + 1;
      while (end < lines.size() && !lines.get(end).equals("```")) {
        end++;
      }
      assertThat(end)
          .as("%s:%d: a ``` block that is never closed", document, i + 1)
          .isLessThan(lines.size());
      Snippet snippet = null;
      if (i > 0) {
        Matcher marker = MARKER.matcher(lines.get(i - 1));
        if (marker.matches()) {
          snippet = new Snippet(marker.group(1), marker.group(2));
        }
      }
      blocks.add(
          new Block(
              document,
              i + 1,
              fence.group(1),
              String.join("\n", lines.subList(i + 1, end)),
              snippet));
      i = end;
    }
    return blocks;
  }

  // Tagged regions.

  /**
   * The lines between {@code tag::tag[]} and {@code end::tag[]} in a source, without the tag lines
   * of other regions inside it.
   */
  static List<String> region(Path file, String tag) throws IOException {
    List<String> lines = Files.readAllLines(file);
    Path source = ROOT.relativize(file).normalize();
    List<String> region = null;
    List<String> found = null;
    for (int i = 0; i < lines.size(); i++) {
      Matcher marker = TAG.matcher(lines.get(i));
      if (!marker.matches()) {
        if (region != null) {
          region.add(lines.get(i));
        }
        continue;
      }
      if (!marker.group(2).equals(tag)) {
        continue;
      }
      if (marker.group(1).equals("tag")) {
        if (region != null || found != null) {
          throw new IllegalArgumentException(
              source + ":" + (i + 1) + ": tag " + tag + " opened a second time");
        }
        region = new ArrayList<>();
      } else {
        if (region == null) {
          throw new IllegalArgumentException(
              source + ":" + (i + 1) + ": end of tag " + tag + " that was not opened");
        }
        found = region;
        region = null;
      }
    }
    if (region != null) {
      throw new IllegalArgumentException(source + ": tag " + tag + " is never ended");
    }
    if (found == null) {
      throw new IllegalArgumentException("no tag::" + tag + "[] in " + source);
    }
    return found;
  }

  /** The lines without their common indentation (blank lines do not count, and end up empty). */
  static List<String> dedent(List<String> lines) {
    int indent = Integer.MAX_VALUE;
    for (String line : lines) {
      if (!line.isBlank()) {
        indent = Math.min(indent, line.length() - line.stripLeading().length());
      }
    }
    List<String> dedented = new ArrayList<>();
    for (String line : lines) {
      dedented.add(line.isBlank() ? "" : line.substring(indent));
    }
    return dedented;
  }

  private static String diff(String expected, Block block) {
    String[] want = expected.split("\n", -1);
    String[] have = block.text().split("\n", -1);
    for (int i = 0; i < Math.max(want.length, have.length); i++) {
      String w = i < want.length ? want[i] : "<end of region>";
      String h = i < have.length ? have[i] : "<end of block>";
      if (!w.equals(h)) {
        return "line "
            + (block.line() + 1 + i)
            + " reads\n    "
            + h
            + "\n  the source has\n    "
            + w;
      }
    }
    return "?";
  }

  private static void assertNoProblems(List<String> problems) {
    assertThat(problems)
        .as("documentation code blocks:\n  " + String.join("\n  ", problems) + "\n")
        .isEmpty();
  }

  // What the blocks are checked against.

  /** The property names of the table in docs/configuration.md (list elements as {@code [N]}). */
  private static Set<String> documentedProperties() throws IOException {
    Set<String> names = new HashSet<>();
    if (!Files.isRegularFile(CONFIGURATION)) {
      return names;
    }
    for (String line : Files.readAllLines(CONFIGURATION)) {
      if (line.startsWith("| `tidemark.")) {
        names.add(line.split("\\|")[1].strip().replace("`", ""));
      }
    }
    return names;
  }

  /** Every property Spring Boot's metadata on the test class path knows. */
  private static Set<String> springBootProperties() throws IOException {
    Set<String> names = new HashSet<>();
    ObjectMapper json = new ObjectMapper();
    for (URL url :
        Collections.list(
            DocumentationSnippetsTests.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
      try (InputStream in = url.openStream()) {
        JsonNode properties = json.readTree(in).get("properties");
        if (properties != null) {
          for (JsonNode property : properties) {
            names.add(property.get("name").asString());
          }
        }
      }
    }
    assertThat(names).as("Spring Boot's configuration metadata").contains("spring.datasource.url");
    return names;
  }

  private static Element pom(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(file.toFile())
        .getDocumentElement();
  }

  /** The text of a direct child element, or of the parent's when the pom inherits it. */
  private static String child(Element element, String name) {
    for (org.w3c.dom.Node node = element.getFirstChild();
        node != null;
        node = node.getNextSibling()) {
      if (node instanceof Element child && child.getTagName().equals(name)) {
        return child.getTextContent().strip();
      }
    }
    return "";
  }
}
