package io.tidemark.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients that create an order on this instance and read it at once on the other, over and over,
 * every other client with Tidemark and every other without, each read told to the {@link LiveFeed}.
 */
final class BackgroundLoad implements AutoCloseable {

  /** Most clients a load may have: each is a thread, on a machine that also runs the servers. */
  static final int MAX_CLIENTS = 16;

  /** Pause between a client's rounds, so the load stays light beside the servers it runs with. */
  static final Duration PAUSE = Duration.ofMillis(100);

  private final LiveFeed feed;
  private final List<Repeated> clients = new ArrayList<>();

  BackgroundLoad(LiveFeed feed) {
    this.feed = feed;
  }

  /** Starts {@code count} clients of {@code scenario}; a load already running keeps its own. */
  synchronized void start(int count, Scenario scenario) {
    if (count < 1 || count > MAX_CLIENTS) {
      throw new IllegalArgumentException("clients must be 1 to " + MAX_CLIENTS + ": " + count);
    }
    if (!clients.isEmpty()) {
      return;
    }
    // Each client keeps to one side, so reads without Tidemark that hang on a frozen replica do not
    // hold up the ones with it.
    for (int i = 0; i < count; i++) {
      String customer = "load-" + i;
      boolean tidemark = i % 2 == 0;
      clients.add(Repeated.every(PAUSE, customer, () -> round(scenario, customer, tidemark)));
    }
  }

  private void round(Scenario scenario, String customer, boolean tidemark) {
    try {
      feed.read(tidemark, scenario.client(customer, tidemark));
    } catch (RuntimeException e) {
      feed.read(
          tidemark ? LiveFeed.Kind.FAILED : LiveFeed.Kind.OFF_FAILED,
          e.getClass().getSimpleName(),
          0,
          0,
          String.valueOf(e.getMessage()));
    }
  }

  /** Stops every client after its round under way. */
  synchronized void stop() {
    clients.forEach(Repeated::close);
    clients.clear();
  }

  synchronized boolean running() {
    return !clients.isEmpty();
  }

  @Override
  public void close() {
    stop();
  }
}
