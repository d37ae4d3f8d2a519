package io.tidemark.topology;

import io.tidemark.ExecutionRecord;
import io.tidemark.Reason;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The newest execution records, bounded, and counts of every record by node and reason since start.
 * Plug it in as a reader's recorder.
 */
public final class ExecutionHistory implements Consumer<ExecutionRecord> {

  /** Default number of records kept. */
  public static final int DEFAULT_CAPACITY = 256;

  private final int capacity;
  private final ArrayDeque<ExecutionRecord> recent;
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  /**
   * @throws IllegalArgumentException when {@code capacity} is less than 1
   */
  public ExecutionHistory(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
    this.recent = new ArrayDeque<>(capacity);
  }

  @Override
  public void accept(ExecutionRecord record) {
    synchronized (recent) {
      if (recent.size() == capacity) {
        recent.removeLast();
      }
      recent.addFirst(record);
    }
    counts.computeIfAbsent(key(record.node(), record.reason()), k -> new LongAdder()).increment();
  }

  /** The records kept, newest first. */
  public List<ExecutionRecord> recent() {
    synchronized (recent) {
      return new ArrayList<>(recent);
    }
  }

  /** How many records named {@code node} and {@code reason}. */
  public long count(String node, Reason reason) {
    LongAdder count = counts.get(key(node, reason));
    return count == null ? 0 : count.sum();
  }

  /** Every count, keyed {@code node/REASON}, sorted. */
  public Map<String, Long> counts() {
    Map<String, Long> snapshot = new TreeMap<>();
    counts.forEach((key, count) -> snapshot.put(key, count.sum()));
    return snapshot;
  }

  private static String key(String node, Reason reason) {
    return node + "/" + reason;
  }
}
