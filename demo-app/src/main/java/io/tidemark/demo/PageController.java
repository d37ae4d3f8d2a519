package io.tidemark.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;
import tools.jackson.databind.json.JsonMapper;

/**
 * The page, served with the live view's state in it, so it draws that at once instead of after its
 * first poll.
 */
@Controller
class PageController {

  /** Where the page takes its first state: a script expression, {@code null} until filled. */
  static final String STATE = "/*live*/null";

  private final String page;
  private final LiveController live;
  private final JsonMapper json;

  PageController(LiveController live, JsonMapper json) {
    this.page = read("/page/index.html");
    this.live = live;
    this.json = json;
  }

  @GetMapping(
      path = {"/", "/index.html"},
      produces = MediaType.TEXT_HTML_VALUE)
  @ResponseBody
  String page() {
    // JSON is a script expression; with every '<' escaped, no text in it can end the script.
    String state = json.writeValueAsString(live.live()).replace("<", "\\u003c");
    return page.replace(STATE, state);
  }

  private static String read(String resource) {
    try (InputStream in = PageController.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no " + resource + " on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
