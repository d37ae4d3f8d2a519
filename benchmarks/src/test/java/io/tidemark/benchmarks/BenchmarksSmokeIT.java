package io.tidemark.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark once, briefly, with the smallest parameters, so that none can rot: each
 * {@code @Benchmark} method must produce a result with a positive score. In this JVM (forks 0), on
 * one MySQL topology (and one PostgreSQL topology) shared by all trials; figures from this run mean
 * nothing.
 */
class BenchmarksSmokeIT {

  @BeforeAll
  static void shareOneTopology() {
    System.setProperty("tidemark.bench.reuseTopology", "true");
  }

  /**
   * Each benchmark with the smallest value of the parameter it is given here ({@code null}: none),
   * the others at their defaults.
   */
  @ParameterizedTest(name = "{index}: {0}")
  @MethodSource("benchmarks")
  void runsBriefly(Class<?> benchmark, @Nullable String param, @Nullable String value)
      throws RunnerException {
    ChainedOptionsBuilder options = options();
    smoke(benchmark, param == null ? options : options.param(param, value));
  }

  static Stream<Arguments> benchmarks() {
    return Stream.of(
        Arguments.of(ReadAfterWriteBenchmark.class, null, null),
        Arguments.of(PostgresReadAfterWriteBenchmark.class, null, null),
        Arguments.of(PostgresFastPathBenchmark.class, null, null),
        Arguments.of(MariaDbReadAfterWriteBenchmark.class, null, null),
        Arguments.of(MariaDbFastPathBenchmark.class, null, null),
        Arguments.of(PostgresManyReadersBenchmark.class, "waiters", "10"),
        Arguments.of(SatisfiedWaitBenchmark.class, "token", "1x1"),
        Arguments.of(CaptureOverheadBenchmark.class, null, null),
        Arguments.of(ManyWaitersBenchmark.class, "waiters", "10"),
        Arguments.of(GlobalReadsBenchmark.class, "readers", "50"),
        Arguments.of(TokenCodecBenchmark.class, "sets", "3x1"),
        Arguments.of(ReaderOverheadBenchmark.class, null, null));
  }

  @Test
  void scaleRun(@TempDir Path results) throws Exception {
    ScaleRun.main(new String[] {results.resolve("scale").toString(), "20", "1", "the smoke run"});

    assertThat(Files.readString(results.resolve("scale.md")))
        .contains("| Tidemark |", "| a wait per read |", "| the source |");
    assertThat(Files.readString(results.resolve("scale.svg"))).startsWith("<svg");
  }

  private static ChainedOptionsBuilder options() {
    return new OptionsBuilder()
        .forks(0)
        .warmupIterations(1)
        .warmupTime(TimeValue.milliseconds(100))
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(200))
        .shouldFailOnError(true)
        .verbosity(VerboseMode.SILENT);
  }

  private static void smoke(Class<?> benchmark, ChainedOptionsBuilder options)
      throws RunnerException {
    long started = System.nanoTime();
    Collection<RunResult> results =
        new Runner(options.include(benchmark.getName() + "\\.").build()).run();
    Set<String> ran = new TreeSet<>();
    List<String> scores = new ArrayList<>();
    for (RunResult result : results) {
      String method = result.getParams().getBenchmark();
      ran.add(method.substring(method.lastIndexOf('.') + 1));
      double score = result.getPrimaryResult().getScore();
      scores.add(method.substring(method.lastIndexOf('.') + 1) + "=" + Math.round(score));
      assertThat(score).as(method).isPositive();
    }
    Set<String> declared = new TreeSet<>();
    Arrays.stream(benchmark.getMethods())
        .filter(m -> m.isAnnotationPresent(Benchmark.class))
        .forEach(m -> declared.add(m.getName()));
    assertThat(ran).isEqualTo(declared);
    System.out.printf(
        "smoke %s: %d results in %d ms %s%n",
        benchmark.getSimpleName(),
        results.size(),
        (System.nanoTime() - started) / 1_000_000,
        scores);
  }
}
