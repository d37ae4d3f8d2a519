package io.tidemark.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Figures JMH cannot take by itself: per-write samples (nanoseconds) of several series that belong
 * together, like the replication floor and the read of the same write, and counts such as reads
 * served by the source. At the end of a trial they are printed as percentiles and, when {@code
 * -Dtidemark.bench.samples=FILE} is set, appended to FILE as one JSON line with every raw sample,
 * so the report can pair them and pool the forks. Not thread-safe: one benchmark thread records.
 */
final class Samples {

  private static final String FILE_PROPERTY = "tidemark.bench.samples";

  /** One line of the samples file; {@code report.Results} reads it back. */
  private record Line(String benchmark, Map<String, long[]> series, Map<String, Long> counts) {}

  private final Map<String, long[]> series = new LinkedHashMap<>();
  private final Map<String, Integer> sizes = new LinkedHashMap<>();
  private final Map<String, Long> counts = new LinkedHashMap<>();

  void add(String name, long nanos) {
    long[] values = series.computeIfAbsent(name, k -> new long[1024]);
    int size = sizes.getOrDefault(name, 0);
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
      series.put(name, values);
    }
    values[size] = nanos;
    sizes.put(name, size + 1);
  }

  /**
   * One read after its write: the floor and the read, both from the commit's acknowledgement
   * ({@code ackAt}), their difference, and whether the source served the read.
   */
  void read(long ackAt, long visibleAt, long doneAt, boolean bySource) {
    add("floor", visibleAt - ackAt);
    add("read", doneAt - ackAt);
    add("excess", doneAt - visibleAt);
    count("reads");
    if (bySource) {
      count("sourceReads");
    }
  }

  /**
   * Readers of one write released at {@code releasedAt} ({@link System#nanoTime}), from the write's
   * acknowledgement at {@code ackAt}: each one ({@code release}) and the last ({@code
   * lastRelease}).
   */
  void releases(List<Long> releasedAt, long ackAt) {
    long last = ackAt;
    for (long at : releasedAt) {
      add("release", at - ackAt);
      last = Math.max(last, at);
    }
    add("lastRelease", last - ackAt);
  }

  void count(String name) {
    counts.merge(name, 1L, Long::sum);
  }

  long[] values(String name) {
    long[] values = series.get(name);
    return values == null ? new long[0] : Arrays.copyOf(values, sizes.get(name));
  }

  /** Prints percentiles of every series and appends the raw samples to the samples file. */
  void publish(String benchmark) {
    StringBuilder summary = new StringBuilder(benchmark);
    for (String name : series.keySet()) {
      long[] sorted = values(name);
      Arrays.sort(sorted);
      summary.append(
          String.format(
              "%n  %-22s n=%-6d p50 %8.1f us  p90 %8.1f us  p99 %8.1f us",
              name,
              sorted.length,
              percentile(sorted, 50) / 1e3,
              percentile(sorted, 90) / 1e3,
              percentile(sorted, 99) / 1e3));
    }
    counts.forEach((name, n) -> summary.append(String.format("%n  %-22s %d", name, n)));
    System.out.println(summary);
    String file = System.getProperty(FILE_PROPERTY);
    if (file != null && !file.isBlank()) {
      append(Path.of(file), json(benchmark));
    }
  }

  private String json(String benchmark) {
    Map<String, long[]> samples = new LinkedHashMap<>();
    series.keySet().forEach(name -> samples.put(name, values(name)));
    return JsonMapper.shared().writeValueAsString(new Line(benchmark, samples, counts)) + "\n";
  }

  private static synchronized void append(Path file, String line) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(
          file,
          line,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write samples to " + file, e);
    }
  }

  /** The nearest-rank percentile of sorted values; 0 when there are none. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
