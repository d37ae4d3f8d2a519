package io.tidemark.spring;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A JSON answer (a problem, an actuator endpoint) read by JSON path, with the library of Spring
 * Boot's test starter on every Boot line, where Boot 4's Jackson 3 is not.
 */
public record JsonAnswer(String text) {

  /** The value at {@code path}: a string, number, boolean, map or list; null where none is. */
  public @Nullable Object at(String path) {
    try {
      return JsonPath.read(text, path);
    } catch (PathNotFoundException e) {
      return null;
    }
  }

  /** The value at {@code path} as text ("null" where none is). */
  public String string(String path) {
    return String.valueOf(at(path));
  }

  /** The names of the top object's members. */
  public Set<String> names() {
    Map<String, Object> top = JsonPath.read(text, "$");
    return top.keySet();
  }

  @Override
  public String toString() {
    return text;
  }
}
