package io.tidemark.testkit.browser;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium for tests of pages as a browser shows them: a browser keeps cookies and never
 * sends a response header back, which is what an application's pages live with. Debian's {@code
 * chromium} and {@code chromium-driver} by default, or the binaries the system properties {@code
 * tidemark.chromium} and {@code tidemark.chromedriver} name. Needs {@code selenium-chrome-driver}
 * on the test's class path.
 *
 * <p>As a static {@code @RegisterExtension} field it starts one browser before the class's tests
 * and quits it after them:
 *
 * <pre>{@code
 * @RegisterExtension static final HeadlessChromium chromium = new HeadlessChromium();
 *
 * @Test
 * void showsTheOrder() {
 *   chromium.driver().get(base + "/orders/7");
 * }
 * }</pre>
 */
public final class HeadlessChromium implements BeforeAllCallback, AfterAllCallback {

  private static final List<String> ARGUMENTS =
      List.of(
          "--headless=new",
          "--no-sandbox",
          "--disable-dev-shm-usage",
          "--disable-background-networking",
          "--no-first-run");

  private final String[] arguments;
  private @Nullable ChromeDriver driver;

  /** A browser started with Chromium's {@code arguments} after its own (a window size, say). */
  public HeadlessChromium(String... arguments) {
    this.arguments = arguments.clone();
  }

  /**
   * Starts a browser, with Chromium's {@code arguments} after its own; the caller quits it. A
   * {@link ChromeDriver}, for tests that speak to the browser through its DevTools protocol too.
   */
  public static ChromeDriver start(String... arguments) {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(System.getProperty("tidemark.chromium", "/usr/bin/chromium"));
    List<String> all = new ArrayList<>(ARGUMENTS);
    all.addAll(List.of(arguments));
    options.addArguments(all);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(
                new File(System.getProperty("tidemark.chromedriver", "/usr/bin/chromedriver")))
            .build();
    return new ChromeDriver(service, options);
  }

  /**
   * The browser of the test class.
   *
   * @throws IllegalStateException outside the class's tests
   */
  public ChromeDriver driver() {
    ChromeDriver started = driver;
    if (started == null) {
      throw new IllegalStateException(
          "no browser: register HeadlessChromium as a static @RegisterExtension field");
    }
    return started;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    driver = start(arguments);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ChromeDriver started = driver;
    driver = null;
    if (started != null) {
      started.quit();
    }
  }
}
