package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.messaging.TidemarkMessagingProperties;
import io.tidemark.spring.web.TidemarkWebProperties;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.ApplicationConversionService;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The configuration table of the documentation (docs/configuration.md) against the metadata the
 * annotation processor generates from {@link TidemarkProperties}, {@link TidemarkWebProperties} and
 * {@link TidemarkMessagingProperties}: every property listed with its default, no row for a
 * property that does not exist, and metadata defaults that are the real ones.
 */
class ConfigurationPropertiesDocumentationTests {

  private static final Path METADATA =
      Path.of("target/classes/META-INF/spring-configuration-metadata.json");

  private static final String HEADING = "## Spring Boot properties";

  private static final Path TABLE = Path.of("../docs/configuration.md");

  private static final Pattern LIST_ELEMENT = Pattern.compile("(.+)\\[N\\]\\.(.+)");

  record Property(String name, String type, @Nullable String defaultValue, String description) {}

  @Test
  void everyPropertyIsInTheTableWithItsDefault() throws IOException {
    Map<String, String> table = table();
    for (Property property : metadata().values()) {
      assertThat(table).as("table row for %s", property.name()).containsKey(property.name());
      String documented = table.get(property.name());
      assertThat(documented)
          .as("documented default of %s", property.name())
          .isEqualTo(property.defaultValue() == null ? "" : property.defaultValue());
    }
  }

  @Test
  void everyRowNamesAPropertyThatExists() throws IOException {
    Map<String, Property> metadata = metadata();
    List<String> rows = new ArrayList<>(table().keySet());
    for (String row : rows) {
      Matcher element = LIST_ELEMENT.matcher(row);
      if (element.matches()) {
        assertThat(elementProperties(metadata.get(element.group(1))))
            .as("list element property %s", row)
            .contains(element.group(2));
      } else {
        assertThat(metadata).as("property %s", row).containsKey(row);
      }
    }
  }

  @Test
  void everyListElementPropertyIsInTheTable() throws IOException {
    Map<String, String> table = table();
    for (Property property : metadata().values()) {
      for (String element : elementProperties(property)) {
        assertThat(table).containsKey(property.name() + "[N]." + element);
      }
    }
  }

  @Test
  void metadataDefaultsAreTheRealDefaults() throws Exception {
    for (Property property : metadata().values()) {
      Object actual = valueOf(defaults(property.name()), property.name());
      if (property.defaultValue() == null) {
        assertThat(isUnset(actual))
            .as("%s has default %s, missing from the metadata", property.name(), actual)
            .isTrue();
      } else {
        assertThat(actual).as("default of %s", property.name()).isNotNull();
        assertThat(
                ApplicationConversionService.getSharedInstance()
                    .convert(property.defaultValue(), actual.getClass()))
            .as("metadata default of %s", property.name())
            .isEqualTo(actual);
      }
    }
  }

  @Test
  void descriptionsFollowTheConventions() throws IOException {
    for (Property property : metadata().values()) {
      String description = property.description();
      assertThat(description).as("description of %s", property.name()).isNotBlank();
      assertThat(description)
          .as("description of %s", property.name())
          .doesNotContain("{@")
          .doesNotStartWith("The ")
          .doesNotStartWith("A ")
          .doesNotStartWith("An ");
      if (property.type().equals("java.lang.Boolean")) {
        assertThat(description).as("description of %s", property.name()).startsWith("Whether ");
      }
    }
  }

  private static Map<String, Property> metadata() throws IOException {
    JsonNode root = new ObjectMapper().readTree(METADATA.toFile());
    Map<String, Property> properties = new LinkedHashMap<>();
    for (JsonNode node : root.get("properties")) {
      String name = node.get("name").asString();
      if (!name.startsWith("tidemark.")) {
        continue;
      }
      JsonNode defaultValue = node.get("defaultValue");
      JsonNode description = node.get("description");
      properties.put(
          name,
          new Property(
              name,
              node.get("type").asString(),
              defaultValue == null ? null : defaultValue.asString(),
              description == null ? "" : description.asString()));
    }
    assertThat(properties).as("properties in %s", METADATA).isNotEmpty();
    return properties;
  }

  /** The table's rows: property name to default, both without backticks. */
  private static Map<String, String> table() throws IOException {
    List<String> lines = Files.readAllLines(TABLE);
    int start = lines.indexOf(HEADING);
    assertThat(start).as("%s in %s", HEADING, TABLE).isNotNegative();
    Map<String, String> rows = new LinkedHashMap<>();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("#")) {
        break;
      }
      if (!line.startsWith("| `")) {
        continue;
      }
      String[] cells = line.split("\\|");
      String name = unquote(cells[1]);
      assertThat(rows.put(name, unquote(cells[2]))).as("second row for %s", name).isNull();
    }
    return rows;
  }

  private static String unquote(String cell) {
    return cell.strip().replace("`", "");
  }

  /** The kebab-case property names of a list property's elements, none for other properties. */
  private static List<String> elementProperties(@Nullable Property property) {
    if (property == null || !property.type().startsWith("java.util.List<")) {
      return List.of();
    }
    String element =
        property.type().substring("java.util.List<".length(), property.type().length() - 1);
    try {
      List<String> names = new ArrayList<>();
      for (PropertyDescriptor descriptor :
          Introspector.getBeanInfo(Class.forName(element), Object.class).getPropertyDescriptors()) {
        if (descriptor.getWriteMethod() != null) {
          names.add(kebab(descriptor.getName()));
        }
      }
      return names;
    } catch (ReflectiveOperationException | java.beans.IntrospectionException e) {
      throw new AssertionError("element type " + element + " of " + property.name(), e);
    }
  }

  /** The settings group that binds {@code name}, as its class makes it. */
  private static Object defaults(String name) {
    if (name.startsWith(WEB)) {
      return new TidemarkWebProperties();
    }
    if (name.startsWith(MESSAGING)) {
      return new TidemarkMessagingProperties();
    }
    return new TidemarkProperties();
  }

  private static final String WEB = "tidemark.web.";
  private static final String MESSAGING = "tidemark.messaging.";

  private static @Nullable Object valueOf(Object root, String name) throws Exception {
    String prefix =
        root instanceof TidemarkProperties ? "tidemark." : name.startsWith(WEB) ? WEB : MESSAGING;
    Object current = root;
    for (String segment : name.substring(prefix.length()).split("\\.")) {
      if (current == null) {
        return null;
      }
      current = getter(current.getClass(), segment).invoke(current);
    }
    return current;
  }

  private static Method getter(Class<?> type, String kebab) throws Exception {
    for (PropertyDescriptor descriptor :
        Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors()) {
      if (kebab(descriptor.getName()).equals(kebab) && descriptor.getReadMethod() != null) {
        return descriptor.getReadMethod();
      }
    }
    throw new AssertionError("no getter for " + kebab + " on " + type.getName());
  }

  private static boolean isUnset(@Nullable Object value) {
    return value == null
        || (value instanceof Collection<?> collection && collection.isEmpty())
        || (value instanceof Map<?, ?> map && map.isEmpty());
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }
}
