package io.tidemark.benchmarks.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/** What one run produced: JMH's results and the paired samples, pooled over forks. */
final class Results {

  private static final String PACKAGE = "io.tidemark.benchmarks.";

  /** One JMH result: benchmark as {@code Class.method}, its parameters and metrics. */
  record Jmh(
      String benchmark,
      Map<String, String> params,
      int threads,
      double score,
      double error,
      String unit,
      Map<String, Double> percentiles,
      double bytesPerOp) {

    /** A SampleTime percentile ({@code 50.0}, {@code 99.0}...) in microseconds, or NaN. */
    double p(String percentile) {
      return percentiles.getOrDefault(percentile, Double.NaN);
    }
  }

  /** Paired series (nanoseconds) and counts of one benchmark, every fork's samples together. */
  record Paired(Map<String, long[]> series, Map<String, Long> counts) {

    long[] sorted(String name) {
      long[] values = series.getOrDefault(name, new long[0]).clone();
      Arrays.sort(values);
      return values;
    }

    long count(String name) {
      return counts.getOrDefault(name, 0L);
    }
  }

  /**
   * What the report reads of an entry of JMH's {@code -rf json}; Jackson 3 skips the rest (raw
   * data, confidence intervals). JMH leaves {@code params} out of a benchmark that has none.
   */
  private record JmhEntry(
      String benchmark,
      int threads,
      @Nullable Map<String, String> params,
      Metric primaryMetric,
      Map<String, Metric> secondaryMetrics) {}

  /** JMH writes a score it has no value for as the string {@code "NaN"}, which Jackson reads. */
  private record Metric(
      double score, double scoreError, String scoreUnit, Map<String, Double> scorePercentiles) {}

  /** A line of {@code Samples}: one fork's series and counts of one benchmark. */
  private record SamplesLine(
      String benchmark, Map<String, long[]> series, Map<String, Long> counts) {}

  final List<Jmh> jmh = new ArrayList<>();
  final Map<String, Paired> paired = new TreeMap<>();

  static Results read(List<Path> jmhFiles, Path samplesFile) throws IOException {
    Results results = new Results();
    for (Path file : jmhFiles) {
      if (Files.exists(file)) {
        results.readJmh(Files.readString(file, StandardCharsets.UTF_8));
      }
    }
    for (String line : samples(samplesFile)) {
      if (!line.isBlank()) {
        results.readSamples(line);
      }
    }
    return results;
  }

  /** The samples' lines, from the file or, once {@code bin/bench} compressed it, its gzip. */
  private static List<String> samples(Path file) throws IOException {
    if (Files.exists(file)) {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    }
    Path gzip = file.resolveSibling(file.getFileName() + ".gz");
    if (!Files.exists(gzip)) {
      return List.of();
    }
    try (InputStream in = new GZIPInputStream(Files.newInputStream(gzip))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  private void readJmh(String text) {
    for (JmhEntry entry : JsonMapper.shared().readValue(text, JmhEntry[].class)) {
      double bytes = Double.NaN;
      for (Map.Entry<String, Metric> metric : entry.secondaryMetrics().entrySet()) {
        if (metric.getKey().endsWith("gc.alloc.rate.norm")) {
          bytes = metric.getValue().score();
        }
      }
      Map<String, String> params = entry.params();
      Metric primary = entry.primaryMetric();
      jmh.add(
          new Jmh(
              entry.benchmark().replace(PACKAGE, ""),
              params == null ? Map.of() : params,
              entry.threads(),
              primary.score(),
              primary.scoreError(),
              primary.scoreUnit(),
              primary.scorePercentiles(),
              bytes));
    }
  }

  private void readSamples(String text) {
    SamplesLine line = JsonMapper.shared().readValue(text, SamplesLine.class);
    Paired into =
        paired.computeIfAbsent(
            line.benchmark().replace(PACKAGE, ""),
            k -> new Paired(new TreeMap<>(), new TreeMap<>()));
    line.series()
        .forEach(
            (name, more) -> {
              long[] had = into.series().getOrDefault(name, new long[0]);
              long[] all = Arrays.copyOf(had, had.length + more.length);
              System.arraycopy(more, 0, all, had.length, more.length);
              into.series().put(name, all);
            });
    line.counts().forEach((name, n) -> into.counts().merge(name, n, Long::sum));
  }

  /** The JMH result of {@code benchmark} whose parameters include {@code params}, or null. */
  @Nullable Jmh find(String benchmark, String... params) {
    for (Jmh result : jmh) {
      if (!result.benchmark().equals(benchmark)) {
        continue;
      }
      boolean matches = true;
      for (int i = 0; i + 1 < params.length; i += 2) {
        matches &= params[i + 1].equals(result.params().get(params[i]));
      }
      if (matches) {
        return result;
      }
    }
    return null;
  }

  @Nullable Paired pairs(String benchmark) {
    return paired.get(benchmark);
  }

  /** The nearest-rank percentile of sorted values, or 0 when there are none. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
