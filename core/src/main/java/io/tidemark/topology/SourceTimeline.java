package io.tidemark.topology;

import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * What the source had executed at each of its recent probes, to tell how long a replica has been
 * missing something: a replica lacking a GTID the source already had at probe time t is at least
 * {@code now - t} behind. The estimate is a lower bound, exact to one refresh interval, and needs
 * no clock agreement between servers.
 */
final class SourceTimeline {

  private static final int MAX_ENTRIES = 600;

  private record Entry(long nanos, GtidSet executed) {}

  private final Ticker ticker;
  private final ArrayDeque<Entry> entries = new ArrayDeque<>();

  SourceTimeline(Ticker ticker) {
    this.ticker = ticker;
  }

  synchronized void record(GtidSet executed) {
    Entry last = entries.peekLast();
    if (last != null && last.executed().equals(executed)) {
      return;
    }
    entries.addLast(new Entry(ticker.read(), executed));
    if (entries.size() > MAX_ENTRIES) {
      entries.removeFirst();
    }
  }

  synchronized GtidSet latest() {
    Entry last = entries.peekLast();
    return last == null ? GtidSet.EMPTY : last.executed();
  }

  /** How long a replica that executed {@code executed} has been missing something, at least. */
  synchronized Duration lagOf(GtidSet executed) {
    long now = ticker.read();
    for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
      Entry entry = it.next();
      if (!executed.containsAll(entry.executed())) {
        return Duration.ofNanos(Math.max(0, now - entry.nanos()));
      }
    }
    return Duration.ZERO;
  }
}
