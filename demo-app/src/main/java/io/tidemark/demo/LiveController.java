package io.tidemark.demo;

import io.tidemark.token.TokenRejectedException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the page's live view polls, the background load it starts and stops, the faults it applies
 * (only with a testkit behind the service: none against real servers), and the token inspector.
 */
@RestController
@RequestMapping("/api")
class LiveController {

  /** Reads listed under the charts. */
  static final int RECENT = 12;

  /**
   * What the page draws.
   *
   * @param feed the last minute
   * @param recent the last reads, newest first
   * @param loadRunning whether the background load runs
   * @param faults the faults on offer; empty without a testkit behind the service
   * @param applied the faults applied so far
   */
  record Live(
      LiveFeed.View feed,
      List<LiveFeed.Read> recent,
      boolean loadRunning,
      List<DemoFaults.Offer> faults,
      List<DemoFaults.Applied> applied) {}

  private final LiveFeed feed;
  private final BackgroundLoad load;
  private final @Nullable DemoFaults faults;
  private final TokenInspector inspector;
  private final Environment environment;

  LiveController(
      LiveFeed feed,
      BackgroundLoad load,
      ObjectProvider<DemoFaults> faults,
      TokenInspector inspector,
      Environment environment) {
    this.feed = feed;
    this.load = load;
    this.faults = faults.getIfAvailable();
    this.inspector = inspector;
    this.environment = environment;
  }

  @GetMapping("/live")
  Live live() {
    return new Live(
        feed.view(),
        feed.recent(RECENT),
        load.running(),
        faults == null ? List.of() : faults.offers(),
        faults == null ? List.of() : faults.applied());
  }

  @PostMapping("/load/start")
  void startLoad(@RequestParam(defaultValue = "4") int clients) {
    String self = "http://127.0.0.1:" + environment.getRequiredProperty("local.server.port");
    load.start(clients, new Scenario(self, environment.getRequiredProperty("demo.peer-url")));
  }

  @PostMapping("/load/stop")
  void stopLoad() {
    load.stop();
  }

  @PostMapping("/faults/{fault}")
  void applyFault(@PathVariable String fault, @RequestParam(defaultValue = "5") int seconds) {
    if (faults == null) {
      throw new IllegalStateException("no testkit behind this service: faults are for the demo");
    }
    DemoFaults.Fault which;
    try {
      which = DemoFaults.Fault.valueOf(fault.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("no fault called " + fault, e);
    }
    faults.apply(which, Duration.ofSeconds(seconds));
  }

  @PostMapping("/tokens/inspect")
  List<TokenInspector.Inspected> inspect(@RequestBody(required = false) @Nullable String text) {
    return inspector.inspect(text == null ? "" : text);
  }

  @ExceptionHandler(IllegalArgumentException.class)
  ProblemDetail badInput(IllegalArgumentException e) {
    return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
  }

  @ExceptionHandler(TokenRejectedException.class)
  ProblemDetail badHeader(TokenRejectedException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    problem.setProperty("rejected", e.reason().name());
    return problem;
  }

  @ExceptionHandler(IllegalStateException.class)
  ProblemDetail conflict(IllegalStateException e) {
    return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
  }
}
