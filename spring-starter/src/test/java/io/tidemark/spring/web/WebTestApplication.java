package io.tidemark.spring.web;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Reason;
import io.tidemark.spring.autoconfigure.TestTokens;
import io.tidemark.spring.autoconfigure.TidemarkProperties;
import io.tidemark.token.TokenCodec;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * A servlet application on an embedded Tomcat with the web and client auto-configurations and the
 * endpoints the filter tests need; the token codec stands in for the core auto-configuration, which
 * needs a database. Each endpoint "writes" by merging GTIDs into the bound context, which is what a
 * captured commit does.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TidemarkProperties.class)
@ImportAutoConfiguration({
  TomcatServletWebServerAutoConfiguration.class,
  DispatcherServletAutoConfiguration.class,
  WebMvcAutoConfiguration.class,
  ErrorMvcAutoConfiguration.class,
  HttpMessageConvertersAutoConfiguration.class,
  JacksonAutoConfiguration.class,
  TaskExecutionAutoConfiguration.class,
  RestClientAutoConfiguration.class,
  TidemarkWebAutoConfiguration.class,
  TidemarkClientAutoConfiguration.class
})
@Import(WebTestApplication.Endpoints.class)
class WebTestApplication {

  static final int LARGE = 64 * 1024;

  @Bean
  TokenCodec tidemarkTokenCodec(TidemarkProperties properties) {
    return TestTokens.codec(properties);
  }

  /** Starts the application on a random port with {@code properties} added. */
  static ConfigurableApplicationContext start(String... properties) {
    return new SpringApplicationBuilder(WebTestApplication.class)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .properties("tidemark.token.secret=" + TestTokens.SECRET)
        .properties(properties)
        .run();
  }

  static String baseUrl(ConfigurableApplicationContext context) {
    return "http://localhost:" + ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  @RestController
  static class Endpoints {

    @GetMapping("/write")
    String write(@RequestParam String gtids) {
      ConsistencyContext context = bound();
      context.merge(GtidSet.parse(gtids));
      return context.gtids().toString();
    }

    /** What is bound to the request thread: the context's GTIDs, whether dirty, the budget. */
    @GetMapping("/context")
    String context() {
      ConsistencyContext context = ConsistencyContext.currentOrNull();
      Deadline deadline = context == null ? null : context.deadline();
      return (context == null ? "none" : context.gtids().toString() + " dirty=" + context.isDirty())
          + " budget="
          + (deadline == null ? "none" : deadline.remaining().toMillis());
    }

    /** A read whose token names {@code lost}, writes the source no longer has. */
    @GetMapping("/lost")
    String lost(@RequestParam String lost) {
      ConsistencyContext context = bound();
      throw ConsistentReadException.lost(
          context.gtids(),
          GtidSet.parse(lost),
          "replica",
          Duration.ofMillis(5),
          "source lacks the token");
    }

    @GetMapping("/refused")
    String refused(@RequestParam String gtids) {
      bound().merge(GtidSet.parse(gtids));
      throw ConsistentReadException.of(
          Reason.WAIT_TIMEOUT,
          GtidSet.parse(gtids),
          "replica-uuid",
          Duration.ofMillis(5),
          "replica did not catch up");
    }

    @GetMapping("/refused-wrapped")
    String refusedWrapped(@RequestParam String gtids) {
      bound().merge(GtidSet.parse(gtids));
      throw new IllegalStateException(
          "repository failed",
          ConsistentReadException.of(
              Reason.DATABASE_BUSY, GtidSet.EMPTY, "replica", Duration.ZERO, "pool exhausted"));
    }

    @GetMapping("/unknown-source")
    String unknownSource() {
      throw ConsistentReadException.of(
          Reason.TOKEN_REJECTED, GtidSet.EMPTY, "replica", Duration.ZERO, "unknown UUID");
    }

    @GetMapping("/boom")
    String boom(@RequestParam String gtids) {
      bound().merge(GtidSet.parse(gtids));
      throw new IllegalStateException("not a consistency outcome");
    }

    @GetMapping("/dirty")
    String dirty(@RequestParam String gtids) {
      ConsistencyContext context = bound();
      context.merge(GtidSet.parse(gtids));
      context.markDirty("a write without a captured GTID");
      return "dirty";
    }

    /** Writes a little, then "commits" more GTIDs, then writes past the response buffer. */
    @GetMapping("/late-write")
    void lateWrite(@RequestParam String first, @RequestParam String later, HttpServletResponse res)
        throws IOException {
      bound().merge(GtidSet.parse(first));
      OutputStream out = res.getOutputStream();
      out.write("start".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      bound().merge(GtidSet.parse(later));
      out.write(new byte[LARGE]);
    }

    /** Writes past the response buffer in line separators alone, one byte each. */
    @GetMapping("/lines")
    void lines(@RequestParam String gtids, HttpServletResponse res) throws IOException {
      bound().merge(GtidSet.parse(gtids));
      res.setContentType("text/plain;charset=ISO-8859-1");
      java.io.PrintWriter out = res.getWriter();
      for (int i = 0; i < LARGE; i++) {
        out.println();
      }
    }

    /** Streams on MVC's async executor; the body "writes" on that thread before streaming. */
    @GetMapping("/stream")
    StreamingResponseBody stream(@RequestParam String first, @RequestParam String later) {
      bound().merge(GtidSet.parse(first));
      return out -> {
        bound().merge(GtidSet.parse(later));
        for (int i = 0; i < 8; i++) {
          out.write(new byte[LARGE / 8]);
          out.flush();
        }
      };
    }

    /** Streams, and "writes" after the first chunk reached the client: the token went out. */
    @GetMapping("/stream-then-write")
    StreamingResponseBody streamThenWrite(@RequestParam String later) {
      return out -> {
        out.write(new byte[LARGE / 8]);
        out.flush();
        bound().merge(GtidSet.parse(later));
        out.write(new byte[LARGE / 8]);
      };
    }

    @GetMapping("/callable")
    Callable<String> callable(@RequestParam String first, @RequestParam String later) {
      bound().merge(GtidSet.parse(first));
      return () -> {
        bound().merge(GtidSet.parse(later));
        return "done";
      };
    }

    private static ConsistencyContext bound() {
      ConsistencyContext context = ConsistencyContext.currentOrNull();
      if (context == null) {
        throw new AssertionError("no consistency context bound on " + Thread.currentThread());
      }
      return context;
    }
  }
}
