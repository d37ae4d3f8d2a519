package com.example.publicapp;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.tidemark.testkit.Poll;
import io.tidemark.testkit.browser.HeadlessChromium;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mysql.ApplierLag;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * An application Tidemark did not write, as its users run it: JHipster's generator made it from
 * notes.jdl (Spring Boot 4.1, Spring Data JPA, session sign-in, an Angular front end), and
 * bin/public-app built it as generated and again with the starter added to its pom.xml. A real
 * headless Chromium signs in and, note after note, creates one (the list it returns to), views it,
 * opens its edit form, saves an edit (the view it returns to) and goes back to the list, clicking
 * as a user does. With Tidemark the properties of the README and the automatic mode are given at
 * start, on a source and a replica whose applier lags 100 to 500 ms; without it, the application
 * reads the source alone. Every page must show the browser's own write, no answer may be a 5xx, and
 * the replica must serve most reads; each page's p50 and p99 are printed for both.
 */
class PublicAppIT {

  private static final int NOTES = 8;
  private static final Duration PAGE = Duration.ofSeconds(5);
  private static final Duration POLL = Duration.ofMillis(10);
  private static final Path JARS = Path.of(System.getProperty("public-app.jars", "target"));
  private static final String JAVA = System.getProperty("public-app.java", "java");

  @RegisterExtension
  static final HeadlessChromium chromium = new HeadlessChromium("--window-size=1280,1024");

  private static final MySqlTopology topology = SharedServers.topology();

  @Test
  void withTidemarkEveryPageShowsTheBrowsersOwnWritesAndTheReplicaServesTheReads() {
    Run without = run("as-generated.jar", false, false);
    Run with = run("with-tidemark.jar", true, false, "tidemark.read.automatic=true");

    without.print("as generated, on the source alone");
    with.print("with Tidemark, on a replica lagging 100-500 ms");
    assertThat(without.failed()).as("pages without the browser's own write, no Tidemark").isEmpty();
    assertThat(with.failed()).as("pages without the browser's own write").isEmpty();
    assertThat(with.serverErrors()).as("5xx answers").isZero();
    assertThat(with.edited()).as("notes whose edit the source holds").isEqualTo(NOTES);
    assertThat(with.replicaShare()).as("share of reads the replica served").isGreaterThan(0.8);
  }

  @Test
  void withoutTheTokenCookieTheSamePagesMissTheirWrites() {
    Run run =
        run(
            "with-tidemark.jar",
            true,
            true,
            "tidemark.read.automatic=true",
            "tidemark.web.cookie.enabled=false");

    run.print("with Tidemark, its cookie off");
    assertThat(run.failed()).as("pages without the browser's own write").isNotEmpty();
  }

  /** What one run of the clicks saw. */
  record Run(
      int notes,
      List<String> failed,
      Map<String, List<Long>> pageMillis,
      long serverErrors,
      int edited,
      double replicaShare,
      String offload) {

    void print(String what) {
      StringBuilder out = new StringBuilder("figures: " + what + ":");
      out.append(
          String.format(
              "%n  %d notes: %d page checks failed, %d 5xx answers, %d edits on the source",
              notes, failed.size(), serverErrors, edited));
      if (!offload.isEmpty()) {
        out.append(String.format("%n  replica share %.1f %%, %s", replicaShare * 100, offload));
      }
      pageMillis.forEach(
          (page, millis) ->
              out.append(
                  String.format(
                      "%n  %-18s p50 %4d ms, p99 %4d ms (%d)",
                      page, percentile(millis, 50), percentile(millis, 99), millis.size())));
      failed.forEach(failure -> out.append("\n  failed: ").append(failure));
      System.out.println(out);
    }
  }

  /**
   * Starts the application from {@code jar} with {@code settings}, on the source, and on the
   * lagging replica when {@code replica}, and clicks through {@link #NOTES} notes; or until the
   * first page that misses its write, when {@code untilAMiss}.
   */
  private static Run run(String jar, boolean replica, boolean untilAMiss, String... settings) {
    MySqlNode source = topology.source();
    String db = topology.createDatabase("notes");
    // The application's user: its own database, and what the README grants Tidemark to read.
    source.execute(
        "CREATE USER IF NOT EXISTS 'notes'@'%' IDENTIFIED BY 'change-me'",
        "GRANT ALL ON `" + db + "`.* TO 'notes'@'%'",
        "GRANT SELECT ON performance_schema.replication_connection_status TO 'notes'@'%'",
        "GRANT SELECT ON performance_schema.replication_applier_status TO 'notes'@'%'",
        "GRANT SELECT ON performance_schema.replication_applier_status_by_worker TO 'notes'@'%'");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    List<String> args = new ArrayList<>();
    args.add("spring.datasource.url=" + source.jdbcUrl(db));
    args.add("spring.datasource.username=notes");
    args.add("spring.datasource.password=change-me");
    // What the generated application asks of its production environment.
    args.add("jhipster.security.remember-me.key=public-app-it-remember-me-0123456789abcdef");
    args.add("management.endpoints.web.exposure.include=health,metrics,tidemark");
    if (replica) {
      args.add("tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db));
      args.add("tidemark.token.secret=public-app-it-secret-0123456789abcdef");
    }
    args.addAll(List.of(settings));
    try (App app = App.start(JARS.resolve(jar), args);
        ApplierLag lag =
            replica
                ? ApplierLag.start(
                    topology.replica(), Duration.ofMillis(100), Duration.ofMillis(500))
                : null) {
      Clicks clicks = new Clicks(app.base());
      clicks.signIn();
      int notes = 0;
      while (notes < NOTES && !(untilAMiss && !clicks.failed.isEmpty())) {
        clicks.note("note " + notes++ + " of " + db);
      }
      long errors = clicks.serverErrors();
      String offload = "";
      double share = 0;
      if (replica) {
        String report = clicks.fetch("/management/tidemark");
        share = ((Number) JsonPath.read(report, "$.offload.replicaShare")).doubleValue();
        offload =
            "reads served "
                + JsonPath.read(report, "$.offload.served")
                + ", on the source because "
                + JsonPath.read(report, "$.offload.onTheSourceBecause");
      }
      String edited =
          source.queryString("SELECT COUNT(*) FROM `" + db + "`.note WHERE title LIKE '% edited'");
      return new Run(
          notes,
          clicks.failed,
          clicks.pageMillis,
          errors,
          Integer.parseInt(String.valueOf(edited)),
          share,
          offload);
    }
  }

  /** The clicks of one run, what each page took, and the pages that missed the browser's write. */
  private static final class Clicks {
    private final String base;
    private final List<String> failed = new ArrayList<>();
    private final Map<String, List<Long>> pageMillis = new LinkedHashMap<>();

    Clicks(String base) {
      this.base = base;
      browser().manage().deleteAllCookies();
    }

    void signIn() {
      browser().get(base + "/login");
      until(By.id("username")).sendKeys("admin");
      browser().findElement(By.id("password")).sendKeys("admin");
      browser().findElement(By.cssSelector("button[type=submit]")).click();
      new WebDriverWait(browser(), PAGE, POLL)
          .until(page -> !page.getCurrentUrl().contains("/login"));
      browser().get(base + "/note");
      until(By.id("jh-create-entity"));
    }

    /** One note's clicks, from the list and back to it. */
    void note(String title) {
      until(By.id("jh-create-entity")).click();
      type(title);
      long started = System.nanoTime();
      browser().findElement(By.id("save-entity")).click();
      WebElement row = page("list after create", started, () -> row(title));
      if (row == null) {
        return;
      }
      started = System.nanoTime();
      row.findElement(By.cssSelector("[data-cy=entityDetailsButton]")).click();
      if (page("view", started, () -> shown(title)) == null) {
        return;
      }
      started = System.nanoTime();
      browser().findElement(By.cssSelector(".jh-entity-details ~ .btn-primary")).click();
      if (page("edit form", started, () -> valued(By.id("field_title"), title)) == null) {
        return;
      }
      type(title + " edited");
      started = System.nanoTime();
      browser().findElement(By.id("save-entity")).click();
      if (page("view after edit", started, () -> shown(title + " edited")) == null) {
        return;
      }
      started = System.nanoTime();
      browser().findElement(By.cssSelector("[data-cy=entityDetailsBackButton]")).click();
      page("list after edit", started, () -> row(title + " edited"));
    }

    /**
     * Waits for what the page must show; records how long it took from the click, or the page as
     * failed when it did not show it in time (a page that answered without the write does not
     * change by itself).
     */
    private <T> T page(String name, long started, Supplier<T> shows) {
      try {
        T found =
            new WebDriverWait(browser(), PAGE, POLL)
                .ignoring(StaleElementReferenceException.class)
                .until(page -> shows.get());
        pageMillis
            .computeIfAbsent(name, k -> new ArrayList<>())
            .add((System.nanoTime() - started) / 1_000_000);
        return found;
      } catch (TimeoutException e) {
        failed.add(name + ": " + excerpt());
        return null;
      }
    }

    private WebElement row(String title) {
      return browser().findElements(By.cssSelector("tr[data-cy=entityTable]")).stream()
          .filter(row -> row.findElements(By.tagName("td")).size() > 1)
          .filter(row -> row.findElements(By.tagName("td")).get(1).getText().equals(title))
          .findFirst()
          .orElse(null);
    }

    private WebElement shown(String title) {
      return browser().findElements(By.cssSelector(".jh-entity-details dd span")).stream()
          .filter(value -> value.getText().equals(title))
          .findFirst()
          .orElse(null);
    }

    private WebElement valued(By by, String value) {
      return browser().findElements(by).stream()
          .filter(field -> value.equals(field.getDomProperty("value")))
          .findFirst()
          .orElse(null);
    }

    /**
     * Types {@code text} into the title field once the form has settled: the form fills itself when
     * its data arrives, over what was typed before, and its save button is enabled only with a
     * title.
     */
    private void type(String text) {
      new WebDriverWait(browser(), PAGE, POLL)
          .ignoring(StaleElementReferenceException.class)
          .until(
              page -> {
                WebElement field = page.findElement(By.id("field_title"));
                if (!text.equals(field.getDomProperty("value"))) {
                  field.clear();
                  field.sendKeys(text);
                  return false;
                }
                return page.findElement(By.id("save-entity")).isEnabled();
              });
    }

    private WebElement until(By by) {
      return new WebDriverWait(browser(), PAGE, POLL)
          .until(page -> page.findElements(by).stream().findFirst().orElse(null));
    }

    /** The application's count of answers with a 5xx status, from its own metrics. */
    long serverErrors() {
      String answer = fetch("/management/metrics/http.server.requests?tag=outcome:SERVER_ERROR");
      if (answer.isEmpty()) {
        return 0; // no such answer was ever counted
      }
      List<Number> counts = JsonPath.read(answer, "$.measurements[?(@.statistic=='COUNT')].value");
      return counts.stream().mapToLong(Number::longValue).sum();
    }

    /** A GET in the signed-in browser; empty when the application answers 404. */
    String fetch(String path) {
      @SuppressWarnings("unchecked")
      List<Object> answer =
          (List<Object>)
              ((JavascriptExecutor) browser())
                  .executeAsyncScript(
                      "const done = arguments[arguments.length - 1];"
                          + " fetch(arguments[0], {credentials: 'same-origin'})"
                          + ".then(r => r.text().then(t => done([r.status, t])))"
                          + ".catch(e => done([0, String(e)]));",
                      base + path);
      int status = ((Number) answer.get(0)).intValue();
      if (status == 404) {
        return "";
      }
      assertThat(status).as("GET " + path + ": " + answer.get(1)).isEqualTo(200);
      return (String) answer.get(1);
    }

    private static String excerpt() {
      String text = browser().findElement(By.tagName("body")).getText().replace('\n', ' ');
      return browser().getCurrentUrl()
          + " "
          + (text.length() > 160 ? text.substring(0, 160) : text);
    }
  }

  private static long percentile(List<Long> values, int percentile) {
    List<Long> sorted = values.stream().sorted().toList();
    int at = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, at));
  }

  /** The application's process: started with {@code settings}, ready when it answers. */
  private record App(Process process, int port, Path log) implements AutoCloseable {

    static App start(Path jar, List<String> settings) {
      try {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
          port = free.getLocalPort();
        }
        Path log = Files.createTempFile(Path.of("target"), "public-app-", ".log");
        List<String> command = new ArrayList<>(List.of(JAVA, "-jar", jar.toString()));
        Stream.concat(
                Stream.of("spring.profiles.active=prod", "server.port=" + port), settings.stream())
            .forEach(setting -> command.add("--" + setting));
        Process process =
            new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        App app = new App(process, port, log);
        app.awaitReady();
        return app;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    String base() {
      return "http://localhost:" + port;
    }

    private void awaitReady() throws IOException {
      HttpClient http = HttpClient.newHttpClient();
      if (Poll.until(() -> !process.isAlive() || ready(http), Duration.ofMinutes(3))
          && process.isAlive()) {
        return;
      }
      String tail = String.join("\n", lastLines(80));
      close();
      throw new IllegalStateException("The application did not get ready:\n" + tail);
    }

    private boolean ready(HttpClient http) {
      try {
        return http.send(
                    HttpRequest.newBuilder(URI.create(base() + "/management/health/readiness"))
                        .build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200;
      } catch (IOException e) {
        return false; // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    private List<String> lastLines(int count) throws IOException {
      List<String> lines = Files.readAllLines(log);
      return lines.subList(Math.max(0, lines.size() - count), lines.size());
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static WebDriver browser() {
    return chromium.driver();
  }
}
