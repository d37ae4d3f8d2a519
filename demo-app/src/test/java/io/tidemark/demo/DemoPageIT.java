package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.RedisServer;
import io.tidemark.testkit.TestkitExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The demo's page in a real headless Chromium: create an order, read it back with Tidemark on
 * (found, with the reason) and off while the replica is held back (not found), and the scenario
 * table; and the checkout, whose write happens on the other instance.
 */
@ExtendWith(TestkitExtension.class)
class DemoPageIT {

  private static MySqlTopology topology;
  private static Demo demo;
  private static WebDriver browser;

  @BeforeAll
  static void start(MySqlTopology shared, RedisServer redis) {
    topology = shared;
    demo = Demo.start(topology, redis, 0);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(System.getProperty("demo.chromium", "/usr/bin/chromium"));
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(
                new java.io.File(System.getProperty("demo.chromedriver", "/usr/bin/chromedriver")))
            .build();
    browser = new ChromeDriver(service, options);
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
    topology.replica().resumeApplier();
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
  }

  @Test
  void checkoutCreatesOnThePeerAndReadsItBackHere() {
    topology.replica().pauseApplier();
    topology.replica().resumeApplierAfter(Duration.ofMillis(300));

    ReadReply reply =
        org.springframework.web.client.RestClient.create(demo.firstUrl())
            .post()
            .uri("/api/checkout?customer=barbara")
            .retrieve()
            .body(ReadReply.class);

    assertThat(reply).isNotNull();
    assertThat(reply.found()).as("the peer's write, read here").isTrue();
    assertThat(reply.servedBy().role()).isEqualTo("replica");
    assertThat(reply.servedBy().reason()).isIn("REPLICA_AFTER_WAIT", "REPLICA_CAUGHT_UP");
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
