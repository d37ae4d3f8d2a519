package io.tidemark.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.benchmarks.report.Results.Jmh;
import io.tidemark.benchmarks.report.Results.Paired;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsTests {

  // Trimmed from JMH 1.37's -rf json: one SampleTime entry with parameters, one throughput entry
  // without (JMH leaves "params" out then) and with the GC profiler's metrics.
  private static final String JMH =
      """
      [
        {
          "jmhVersion" : "1.37",
          "benchmark" : "io.tidemark.benchmarks.ManyWaitersBenchmark.release",
          "mode" : "sample",
          "threads" : 1,
          "forks" : 1,
          "params" : { "mode" : "coalesced", "waiters" : "10" },
          "primaryMetric" : {
            "score" : 1234.5,
            "scoreError" : "NaN",
            "scoreConfidence" : [ "NaN", "NaN" ],
            "scorePercentiles" : { "0.0" : 10.0, "50.0" : 1200.25, "90.0" : 1500.0, "99.0" : 2E3 },
            "scoreUnit" : "us/op",
            "rawDataHistogram" : [ [ [ [ 1200.25, 3 ] ] ] ]
          },
          "secondaryMetrics" : { }
        },
        {
          "jmhVersion" : "1.37",
          "benchmark" : "io.tidemark.benchmarks.TokenCodecBenchmark.verifyToken",
          "mode" : "thrpt",
          "threads" : 1,
          "primaryMetric" : {
            "score" : 2500000.0,
            "scoreError" : 12345.6,
            "scorePercentiles" : { "50.0" : 2500000.0 },
            "scoreUnit" : "ops/s",
            "rawData" : [ [ 2500000.0 ] ]
          },
          "secondaryMetrics" : {
            "gc.alloc.rate" : {
              "score" : 700.5,
              "scoreError" : 3.25,
              "scorePercentiles" : { "50.0" : 700.5 },
              "scoreUnit" : "MB/sec"
            },
            "gc.alloc.rate.norm" : {
              "score" : 312.0,
              "scoreError" : 0.001,
              "scorePercentiles" : { "50.0" : 312.0 },
              "scoreUnit" : "B/op"
            }
          }
        }
      ]
      """;

  @TempDir Path folder;

  @Test
  void readsJmhResultsOfEveryFile() throws IOException {
    Files.writeString(folder.resolve("run.json"), JMH, StandardCharsets.UTF_8);

    Results results =
        Results.read(
            List.of(folder.resolve("run.json"), folder.resolve("run-codec.json")),
            folder.resolve("run-samples.jsonl"));

    assertThat(results.jmh).hasSize(2);
    Jmh release =
        results.find("ManyWaitersBenchmark.release", "waiters", "10", "mode", "coalesced");
    assertThat(release).isNotNull();
    assertThat(release.params()).isEqualTo(Map.of("mode", "coalesced", "waiters", "10"));
    assertThat(release.threads()).isEqualTo(1);
    assertThat(release.score()).isEqualTo(1234.5);
    assertThat(release.error()).isNaN();
    assertThat(release.unit()).isEqualTo("us/op");
    assertThat(release.p("50.0")).isEqualTo(1200.25);
    assertThat(release.p("99.0")).isEqualTo(2000.0);
    assertThat(release.p("99.9")).isNaN();
    assertThat(release.bytesPerOp()).isNaN();
    assertThat(results.find("ManyWaitersBenchmark.release", "waiters", "500")).isNull();

    Jmh verify = results.find("TokenCodecBenchmark.verifyToken");
    assertThat(verify).isNotNull();
    assertThat(verify.params()).isEmpty();
    assertThat(verify.error()).isEqualTo(12345.6);
    assertThat(verify.bytesPerOp()).isEqualTo(312.0);
  }

  @Test
  void poolsTheForksSamplesFromTheCompressedFile() throws IOException {
    String lines =
        "{\"benchmark\":\"io.tidemark.benchmarks.ReadAfterWriteBenchmark.tidemark\","
            + "\"series\":{\"floor\":[30,10],\"read\":[9007199254740993]},"
            + "\"counts\":{\"reads\":2,\"sourceReads\":1}}\n"
            + "\n"
            + "{\"benchmark\":\"io.tidemark.benchmarks.ReadAfterWriteBenchmark.tidemark\","
            + "\"series\":{\"floor\":[20]},\"counts\":{\"reads\":1}}\n";
    try (OutputStream out =
        new GZIPOutputStream(Files.newOutputStream(folder.resolve("run-samples.jsonl.gz")))) {
      out.write(lines.getBytes(StandardCharsets.UTF_8));
    }

    Results results = Results.read(List.of(), folder.resolve("run-samples.jsonl"));

    Paired tidemark = results.pairs("ReadAfterWriteBenchmark.tidemark");
    assertThat(tidemark).isNotNull();
    assertThat(tidemark.sorted("floor")).containsExactly(10, 20, 30);
    // Beyond a double's 53 bits: read as a long, not through a double.
    assertThat(tidemark.sorted("read")).containsExactly(9007199254740993L);
    assertThat(tidemark.sorted("excess")).isEmpty();
    assertThat(tidemark.count("reads")).isEqualTo(3);
    assertThat(tidemark.count("sourceReads")).isEqualTo(1);
    assertThat(results.pairs("io.tidemark.benchmarks.ReadAfterWriteBenchmark.tidemark")).isNull();
  }
}
