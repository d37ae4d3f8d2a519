package io.tidemark.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads the JSON that JMH and {@code Samples} write: objects become maps, arrays lists, numbers
 * doubles, and {@code null} Java null. Only what those two writers produce needs to be read, so
 * this is small rather than general (no surrogate pairs in escapes, for one).
 */
final class Json {

  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  static @Nullable Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.space();
    if (json.at != text.length()) {
      throw json.error("trailing text");
    }
    return value;
  }

  /** The map at {@code key} of {@code object}, or an empty map. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(@Nullable Object object, String key) {
    Object value = object instanceof Map<?, ?> map ? map.get(key) : null;
    return value instanceof Map<?, ?> ? (Map<String, Object>) value : Map.of();
  }

  /** The number at {@code key} of {@code object}, or NaN. */
  static double number(@Nullable Object object, String key) {
    Object value = object instanceof Map<?, ?> map ? map.get(key) : null;
    return value instanceof Double d ? d : Double.NaN;
  }

  static String string(@Nullable Object object, String key) {
    Object value = object instanceof Map<?, ?> map ? map.get(key) : null;
    return value == null ? "" : value.toString();
  }

  private @Nullable Object value() {
    space();
    if (at >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      default:
        if (text.startsWith("null", at)) {
          at += 4;
          return null;
        }
        if (text.startsWith("true", at)) {
          at += 4;
          return Boolean.TRUE;
        }
        if (text.startsWith("false", at)) {
          at += 5;
          return Boolean.FALSE;
        }
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    at++;
    space();
    if (text.charAt(at) == '}') {
      at++;
      return map;
    }
    while (true) {
      space();
      String key = string();
      space();
      expect(':');
      map.put(key, value());
      space();
      if (text.charAt(at) == ',') {
        at++;
      } else {
        expect('}');
        return map;
      }
    }
  }

  private List<@Nullable Object> array() {
    List<@Nullable Object> list = new ArrayList<>();
    at++;
    space();
    if (text.charAt(at) == ']') {
      at++;
      return list;
    }
    while (true) {
      list.add(value());
      space();
      if (text.charAt(at) == ',') {
        at++;
      } else {
        expect(']');
        return list;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = text.charAt(at++);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> out.append(e);
      }
    }
  }

  private Double number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    String number = text.substring(start, at);
    if (number.isEmpty()) {
      // JMH writes "NaN" for metrics without a value.
      if (text.startsWith("NaN", at) || text.startsWith("\"NaN\"", at)) {
        at += text.charAt(at) == '"' ? 5 : 3;
        return Double.NaN;
      }
      throw error("not a value");
    }
    return Double.valueOf(number);
  }

  private void expect(char c) {
    if (at >= text.length() || text.charAt(at) != c) {
      throw error("expected " + c);
    }
    at++;
  }

  private void space() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at character " + at);
  }
}
