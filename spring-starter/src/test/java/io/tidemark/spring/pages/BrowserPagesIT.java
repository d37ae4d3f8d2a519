package io.tidemark.spring.pages;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.testkit.browser.HeadlessChromium;
import io.tidemark.testkit.junit.SharedServers;
import io.tidemark.testkit.mysql.ApplierLag;
import io.tidemark.testkit.mysql.MySqlNode;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.topology.ExecutionHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real headless Chromium through the forms of a server-rendered application that names nothing of
 * Tidemark (create, redirect, view, edit, redirect, view) on a source and a replica that lags 100
 * to 500 ms, with the quick start's properties and the automatic mode: its repository's reads go to
 * the replica without a code change. A browser never sends a response header back: only the cookie,
 * on by default, carries its writes to the next page. With the cookie switched off, the same clicks
 * see pages without their own writes; without the automatic mode, every read is the source's.
 */
class BrowserPagesIT {

  private static final int OWNERS = 8;

  @RegisterExtension static final HeadlessChromium chromium = new HeadlessChromium();

  private static final MySqlTopology topology = SharedServers.topology();

  @Test
  void inTheAutomaticModeEveryPageShowsTheBrowsersOwnWrites() {
    Clicks clicks = clickThrough(AUTOMATIC);

    assertThat(clicks.failed()).as("pages without the browser's own write").isEmpty();
    assertThat(clicks.lostEdits()).as("edits lost on the source").isZero();
    // Each owner's three pages read on the replica, unless it lagged past the budget; the edit's
    // post reads the source, as it writes.
    assertThat(clicks.replicaReads() + clicks.sourceReads()).isEqualTo(4L * OWNERS);
    assertThat(clicks.readsForWrite()).as("reads for a write, on the source").isEqualTo(OWNERS);
    assertThat(clicks.replicaReads())
        .as("reads served by the replica")
        .isGreaterThanOrEqualTo(2L * OWNERS);
  }

  @Test
  void withoutTheCookieTheSameClicksSeePagesWithoutTheirWrites() {
    Clicks clicks = clickThrough(AUTOMATIC, "tidemark.web.cookie.enabled=false");

    assertThat(clicks.failed()).as("pages without the browser's own write").isNotEmpty();
  }

  @Test
  void withoutTheAutomaticModeTheUnannotatedApplicationReadsTheSourceOnly() {
    Clicks clicks = clickThrough();

    assertThat(clicks.failed()).as("pages without the browser's own write").isEmpty();
    assertThat(clicks.replicaReads() + clicks.sourceReads()).as("reads of the read path").isZero();
  }

  private static final String AUTOMATIC = "tidemark.read.automatic=true";

  /**
   * What the clicks saw: the pages that missed the browser's own write, the edits lost, and where
   * the read path's reads ran.
   */
  record Clicks(
      List<String> failed,
      int lostEdits,
      long replicaReads,
      long sourceReads,
      long readsForWrite) {}

  private static Clicks clickThrough(String... settings) {
    String db = topology.createDatabase("pages");
    topology
        .source()
        .execute(
            "CREATE TABLE `"
                + db
                + "`.owners (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(80) NOT NULL)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    List<String> failed = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    try (ConfigurableApplicationContext app = start(db, settings);
        ApplierLag lag =
            ApplierLag.start(topology.replica(), Duration.ofMillis(100), Duration.ofMillis(500))) {
      String base =
          "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
      browser().manage().deleteAllCookies();
      for (int i = 0; i < OWNERS; i++) {
        String name = "owner " + i;
        browser().get(base + "/owners/new");
        submit(name);
        check(name, "view after create", failed);
        String url = browser().getCurrentUrl();
        if (!url.matches(".*/owners/\\d+")) {
          failed.add("create " + i + " went to " + url);
          continue;
        }
        long id = Long.parseLong(url.substring(url.lastIndexOf('/') + 1));
        ids.add(id);
        browser().get(base + "/owners/" + id + "/edit");
        List<WebElement> field = browser().findElements(By.id("name"));
        if (field.isEmpty() || !name.equals(field.get(0).getAttribute("value"))) {
          failed.add("edit form of " + name + ": " + excerpt());
          continue;
        }
        submit(name + " edited");
        check(name + " edited", "view after edit", failed);
      }
      List<ExecutionRecord> reads = app.getBean(ExecutionHistory.class).recent();
      long replicaReads = reads.stream().filter(r -> r.role() == NodeRole.REPLICA).count();
      long sourceReads = reads.stream().filter(r -> r.role() == NodeRole.SOURCE).count();
      long forWrite = reads.stream().filter(r -> r.reason() == Reason.SOURCE_FOR_WRITE).count();
      lag.close();
      int lost = 0;
      for (long id : ids) {
        String name =
            topology.source().queryString("SELECT name FROM `" + db + "`.owners WHERE id = " + id);
        if (name == null || !name.endsWith(" edited")) {
          lost++;
        }
      }
      System.out.printf(
          "figures: %s: %d of %d page checks without the browser's own write, %d edits lost,"
              + " %d reads on the replica, %d on the source%n",
          settings.length == 0 ? "defaults" : String.join(" ", settings),
          failed.size(),
          OWNERS * 3,
          lost,
          replicaReads,
          sourceReads);
      return new Clicks(failed, lost, replicaReads, sourceReads, forWrite);
    }
  }

  /**
   * Submits the form and waits until the next page has loaded: the page it was on is marked, and a
   * new document has no mark.
   */
  private static void submit(String name) {
    WebElement field = browser().findElement(By.id("name"));
    field.clear();
    field.sendKeys(name);
    JavascriptExecutor page = (JavascriptExecutor) browser();
    page.executeScript("window.tidemarkSubmitted = true");
    browser().findElement(By.id("save")).click();
    new WebDriverWait(browser(), Duration.ofSeconds(10))
        .ignoring(WebDriverException.class)
        .until(
            loaded ->
                Boolean.TRUE.equals(
                    page.executeScript(
                        "return window.tidemarkSubmitted === undefined"
                            + " && document.readyState === 'complete'")));
  }

  private static void check(String expected, String page, List<String> failed) {
    List<WebElement> owner = browser().findElements(By.id("owner"));
    if (owner.isEmpty() || !owner.get(0).getText().equals(expected)) {
      failed.add(page + " of " + expected + ": " + excerpt());
    }
  }

  private static String excerpt() {
    String text = browser().findElement(By.tagName("body")).getText().replace('\n', ' ');
    return text.length() > 120 ? text.substring(0, 120) : text;
  }

  private static ConfigurableApplicationContext start(String db, String... settings) {
    MySqlNode source = topology.source();
    return new SpringApplicationBuilder(PagesApplication.class)
        .properties(
            "server.port=0",
            "spring.datasource.url=" + source.jdbcUrl(db),
            "spring.datasource.username=" + source.user(),
            "spring.datasource.password=" + source.password(),
            "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db),
            "tidemark.token.secret=browser-pages-it-secret-0123456789abcdef")
        .properties(settings)
        .run();
  }

  private static WebDriver browser() {
    return chromium.driver();
  }
}
