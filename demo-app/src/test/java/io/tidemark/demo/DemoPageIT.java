package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.browser.HeadlessChromium;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.testkit.redis.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.web.client.RestClient;

/**
 * The demo's page in a real headless Chromium: the live view under the background load and a fault
 * clicked on the page, the token inspector, create an order, read it back with Tidemark on (found,
 * with the reason) and off while the replica is held back (not found), and the scenario table and
 * chart; and the checkout, whose write happens on the other instance.
 */
@ExtendWith(TestkitExtension.class)
class DemoPageIT {

  private static MySqlTopology topology;
  private static RedisServer redis;
  private static Demo demo;
  private static ChromeDriver browser;

  @BeforeAll
  static void start(MySqlTopology shared, RedisServer sharedRedis) {
    topology = shared;
    redis = sharedRedis;
    demo = Demo.start(topology, redis, 0);
    browser = HeadlessChromium.start("--window-size=1200,2400");
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    demo.close();
  }

  @AfterEach
  void releaseReplica() {
    RestClient.create(demo.firstUrl()).post().uri("/api/load/stop").retrieve().toBodilessEntity();
    topology.replica().resumeApplier();
  }

  @Test
  void liveViewDrawsTheLoadAndAFaultClickTurnsWaitsIntoFallbacksNeverIntoStaleAnswers()
      throws Exception {
    browser.get(demo.firstUrl() + "/");
    click("load-start");
    waitUntil(
        Duration.ofSeconds(30),
        () -> number("reads-off", "data-reads") + number("reads-on", "data-reads") >= 20);
    waitUntil(Duration.ofSeconds(10), () -> number("lag-chart", "data-samples") > 0);
    long fallbacksBefore = count("SOURCE_FALLBACK") + count("REFUSED");
    long offStaleBefore = Long.parseLong(live("off-stale"));

    browser.findElement(By.id("fault-seconds")).clear();
    browser.findElement(By.id("fault-seconds")).sendKeys("4");
    click("fault-HOLD_APPLIER");

    waitUntil(
        Duration.ofSeconds(20),
        () -> count("SOURCE_FALLBACK") + count("REFUSED") > fallbacksBefore);
    waitUntil(Duration.ofSeconds(20), () -> live("applied").contains("undone"));
    assertThat(Long.parseLong(live("off-stale")))
        .as("reads without Tidemark while the applier was held")
        .isGreaterThan(offStaleBefore);
    assertThat(live("on-stale")).as("stale answers with Tidemark").isEqualTo("0");
    assertThat(live("count-STALE")).isEqualTo("0");
    Path screenshot = Path.of("target", "demo-page.png");
    Files.write(screenshot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
  }

  @Test
  void theStateIsDrawnWithThePageBeforeAnyPollAnswers() {
    RestClient api = RestClient.create(demo.firstUrl());
    api.post().uri("/api/load/start?clients=2").retrieve().toBodilessEntity();
    waitUntil(Duration.ofSeconds(30), () -> totals(api).offReads() > 0);
    api.post().uri("/api/load/stop").retrieve().toBodilessEntity();
    LiveFeed.Totals before = totals(api);
    // Every poll of the page hangs unanswered: what it shows came with the page.
    browser.executeCdpCommand(
        "Fetch.enable", Map.of("patterns", List.of(Map.of("urlPattern", "*/api/live*"))));
    try {
      browser.get(demo.firstUrl() + "/");

      LiveFeed.Totals after = totals(api);
      assertThat(Long.parseLong(live("off-reads")))
          .as("reads without Tidemark, shown at once")
          .isPositive()
          .isBetween(before.offReads(), after.offReads());
      assertThat(Long.parseLong(live("on-reads")))
          .isPositive()
          .isBetween(before.onReads(), after.onReads());
      assertThat(live("kinds")).contains("last minute");
      assertThat(number("reads-off", "data-reads") + number("reads-on", "data-reads"))
          .as("reads on the charts")
          .isPositive();
    } finally {
      browser.executeCdpCommand("Fetch.disable", Map.of());
    }
  }

  @Test
  void tokenInspectorShowsWhatTheTokenHoldsAndRejectsAnAlteredOne() {
    browser.get(demo.firstUrl() + "/");
    createOrder("edsger");
    click("token-last");
    click("token-inspect");

    String table = waitForText("token-table");
    assertThat(table)
        .contains("orders")
        .contains("verified")
        .contains(topology.source().serverUuid() + ":");

    WebElement text = browser.findElement(By.id("token-text"));
    String token = text.getAttribute("value");
    int inSignature = token.length() - 10;
    char altered = token.charAt(inSignature) == 'A' ? 'B' : 'A';
    text.clear();
    text.sendKeys(token.substring(0, inSignature) + altered + token.substring(inSignature + 1));
    click("token-inspect");

    new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(
            ExpectedConditions.textToBePresentInElementLocated(
                By.id("token-table"), "BAD_SIGNATURE"));
    assertThat(browser.findElement(By.id("token-table")).getText()).doesNotContain("verified");
  }

  @Test
  void withoutATestkitBehindItThePageOffersNoFaults() {
    // Only the instance the demo serves its page from is given the testkit's faults.
    browser.get(demo.secondUrl() + "/");
    waitUntil(
        Duration.ofSeconds(10), () -> !browser.findElement(By.id("kinds")).getText().isEmpty());

    assertThat(browser.findElement(By.id("faults")).getAttribute("class")).contains("hidden");
    assertThat(browser.findElements(By.cssSelector("#fault-buttons button"))).isEmpty();
  }

  @Test
  void readWithTidemarkFindsTheOrderWrittenWhileTheReplicaLags() {
    browser.get(demo.firstUrl() + "/");
    topology.replica().pauseApplier();
    createOrder("grace");
    topology.replica().resumeApplierAfter(Duration.ofMillis(300));

    click("read");

    assertThat(waitForText("verdict")).isEqualTo("found");
    assertThat(browser.findElement(By.id("role")).getText()).isEqualTo("replica");
    assertThat(browser.findElement(By.id("reason")).getText()).isEqualTo("REPLICA_AFTER_WAIT");
  }

  @Test
  void readWithTidemarkOffShowsTheStaleRead() {
    browser.get(demo.firstUrl() + "/");
    topology.replica().pauseApplier();
    createOrder("linus");
    browser.findElement(By.id("tidemark")).click();

    click("read");

    assertThat(waitForText("verdict")).isEqualTo("not found (stale read)");
    assertThat(browser.findElement(By.id("reason")).getText()).isEqualTo("PLAIN_REPLICA_READ");
  }

  @Test
  void scenarioButtonFillsTheTable() {
    browser.get(demo.firstUrl() + "/");

    click("scenario");

    new WebDriverWait(browser, Duration.ofSeconds(60))
        .until(ExpectedConditions.presenceOfElementLocated(By.id("scenario-table")));
    String table = browser.findElement(By.id("scenario-table")).getText();
    assertThat(table).contains("off").contains("on").contains("40");
    assertThat(browser.findElement(By.id("scenario-chart")).getAttribute("data-runs"))
        .isEqualTo("2");
    assertThat(browser.findElements(By.cssSelector("#scenario-chart canvas"))).hasSize(1);
  }

  @Test
  void checkoutCreatesOnThePeerAndReadsItBackHere() {
    topology.replica().pauseApplier();
    topology.replica().resumeApplierAfter(Duration.ofMillis(300));

    ReadReply reply =
        RestClient.create(demo.firstUrl())
            .post()
            .uri("/api/checkout?customer=barbara")
            .retrieve()
            .body(ReadReply.class);

    assertThat(reply).isNotNull();
    assertThat(reply.found()).as("the peer's write, read here").isTrue();
    // A POST is about to write: its reads see everything committed, on the source.
    assertThat(reply.servedBy().role()).isEqualTo("source");
    assertThat(reply.servedBy().reason()).isEqualTo("SOURCE_FOR_WRITE");
  }

  /** The page under the demo's own lag: the applier held 150 ms, released 50 ms, over and over. */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class UnderTheDemosLag {

    private Demo lagging;

    @BeforeAll
    void start() {
      lagging = Demo.start(topology, redis, 0);
      lagging.injectLag(DemoMain.HELD, DemoMain.RELEASED);
    }

    @AfterAll
    void stop() {
      lagging.close();
    }

    @AfterEach
    void stopLoad() {
      RestClient.create(lagging.firstUrl())
          .post()
          .uri("/api/load/stop")
          .retrieve()
          .toBodilessEntity();
    }

    @Test
    void offAndOnAreDrawnSideBySideEachWithItsOwnShortLegend() {
      browser.get(lagging.firstUrl() + "/");
      click("load-start");
      waitUntil(Duration.ofSeconds(40), () -> headline("off").stale() >= 3);

      WebElement off = browser.findElement(By.id("mode-off"));
      WebElement on = browser.findElement(By.id("mode-on"));
      assertThat(on.getRect().getY()).as("side by side").isEqualTo(off.getRect().getY());
      assertThat(off.getRect().getX() + off.getRect().getWidth()).isLessThan(on.getRect().getX());
      assertThat(off.findElements(By.tagName("canvas"))).hasSize(1);
      assertThat(on.findElements(By.tagName("canvas"))).hasSize(1);
      assertThat(legend(off)).containsExactlyInAnyOrder("found", "stale", "failed");
      assertThat(legend(on))
          .containsExactlyInAnyOrder(
              "caught up",
              "after a wait",
              "source fallback",
              "other",
              "refused",
              "stale",
              "failed");

      Headline offLine = headline("off");
      Headline onLine = headline("on");
      assertThat(offLine.stale()).isPositive().isLessThanOrEqualTo(offLine.reads());
      assertThat(onLine.reads()).isPositive();
      assertThat(onLine.stale()).as("stale answers with Tidemark").isZero();
    }

    @Test
    void theLagLineIsAboveZeroInEverySecondWithAStaleRead() {
      browser.get(lagging.firstUrl() + "/");
      click("load-start");
      waitUntil(Duration.ofSeconds(40), () -> staleSeconds().size() >= 5);

      List<List<Object>> stale = staleSeconds();
      assertThat(stale)
          .as("[second, stale reads, lag drawn] of each second with stale reads")
          .hasSizeGreaterThanOrEqualTo(5)
          .allSatisfy(
              second ->
                  assertThat(second.get(2))
                      .as("lag drawn for " + second)
                      .isInstanceOfSatisfying(
                          Number.class, lag -> assertThat(lag.doubleValue()).isPositive()));
    }

    /**
     * The seconds of the lag chart, but its last (still filling), with plain reads that missed
     * their order: each second, its stale reads as the service counts them, and the first line
     * labelled "lag" there.
     */
    @SuppressWarnings("unchecked")
    private List<List<Object>> staleSeconds() {
      return (List<List<Object>>)
          browser.executeAsyncScript(
              """
              const done = arguments[arguments.length - 1];
              const chart = lagChart;
              const line = chart.series.findIndex(s => String(s.label).startsWith('lag'));
              const xs = chart.data[0];
              fetch('/api/live').then(r => r.json()).then(live => {
                const stale = [];
                live.feed.seconds.forEach((second, i) => {
                  const n = live.feed.reads.OFF_STALE[i];
                  const at = xs.indexOf(second);
                  if (n > 0 && at >= 0 && at < xs.length - 1) {
                    stale.push([second, n, line < 0 ? null : chart.data[line][at]]);
                  }
                });
                done(stale);
              });
              """);
    }
  }

  /** What a mode's headline says: stale of reads. */
  private record Headline(long stale, long reads) {}

  private static final Pattern HEADLINE =
      Pattern.compile("Tidemark (?:off|on):\\s+(\\d+)\\s+stale of\\s+(\\d+)\\s+reads");

  private Headline headline(String mode) {
    String text = live(mode + "-headline");
    Matcher matched = HEADLINE.matcher(text);
    return matched.find()
        ? new Headline(Long.parseLong(matched.group(1)), Long.parseLong(matched.group(2)))
        : new Headline(-1, -1);
  }

  private static List<String> legend(WebElement panel) {
    return panel.findElements(By.cssSelector(".u-legend .u-label")).stream()
        .map(WebElement::getText)
        .toList();
  }

  private static LiveFeed.Totals totals(RestClient api) {
    return api.get().uri("/api/live").retrieve().body(LiveController.Live.class).feed().totals();
  }

  private void createOrder(String customer) {
    browser.findElement(By.id("customer")).clear();
    browser.findElement(By.id("customer")).sendKeys(customer);
    click("create");
    new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(
            ExpectedConditions.textMatches(
                By.id("created"), java.util.regex.Pattern.compile("order \\d+ created.*")));
  }

  /** The text of a part of the live view, read in one step: the view redraws it every second. */
  private String live(String id) {
    Object text =
        ((JavascriptExecutor) browser)
            .executeScript(
                "const e = document.getElementById(arguments[0]); return e ? e.textContent : '';",
                id);
    return String.valueOf(text);
  }

  private long count(String kind) {
    String text = live("count-" + kind);
    return text.isEmpty() ? 0 : Long.parseLong(text);
  }

  private long number(String id, String attribute) {
    String value = browser.findElement(By.id(id)).getAttribute(attribute);
    return value == null ? 0 : Long.parseLong(value);
  }

  private void waitUntil(Duration timeout, BooleanSupplier condition) {
    new WebDriverWait(browser, timeout).until(d -> condition.getAsBoolean());
  }

  private void click(String id) {
    browser.findElement(By.id(id)).click();
  }

  private String waitForText(String id) {
    return new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(
            d -> {
              var found = d.findElements(By.id(id));
              return found.isEmpty() || found.get(0).getText().isEmpty()
                  ? null
                  : found.get(0).getText();
            });
  }
}
