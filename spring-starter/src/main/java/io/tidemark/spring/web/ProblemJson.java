package io.tidemark.spring.web;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponse;

/**
 * A problem's body where Spring's message converters are out of reach, in the token filters: the
 * same members as Spring's own rendering of a {@link ProblemDetail} (its properties are strings
 * here), by hand, so that a rejected token costs no object mapper.
 */
final class ProblemJson {

  private ProblemJson() {}

  /** The body of {@code problem}, answering a request to {@code path}. */
  static byte[] body(ErrorResponse problem, String path) {
    ProblemDetail body = problem.getBody();
    StringBuilder json = new StringBuilder("{");
    URI type = body.getType();
    if (type != null) {
      member(json, "type", type.toString());
    }
    member(json, "title", body.getTitle());
    json.append("\"status\":").append(body.getStatus()).append(',');
    member(json, "detail", body.getDetail());
    URI instance = body.getInstance();
    member(json, "instance", instance != null ? instance.toString() : path);
    Map<String, Object> properties = body.getProperties();
    if (properties != null) {
      properties.forEach((name, value) -> member(json, name, String.valueOf(value)));
    }
    json.setLength(json.length() - 1); // the last member's comma
    return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void member(StringBuilder json, String name, @Nullable String value) {
    if (value == null) {
      return;
    }
    string(json, name).append(':');
    string(json, value).append(',');
  }

  private static StringBuilder string(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }
}
