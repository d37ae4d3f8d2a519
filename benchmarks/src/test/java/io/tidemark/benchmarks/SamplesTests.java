package io.tidemark.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.benchmarks.report.ResultsReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SamplesTests {

  @TempDir Path folder;

  @AfterEach
  void forgetTheFile() {
    System.clearProperty("tidemark.bench.samples");
  }

  @Test
  void appendsOneLineInTheFormatTheCommittedResultsHave() throws IOException {
    Path file = folder.resolve("nested/run-samples.jsonl");
    System.setProperty("tidemark.bench.samples", file.toString());
    Samples samples = new Samples();
    samples.read(100, 150, 400, false);
    samples.read(100, 120, 170, true);
    samples.publish("io.tidemark.benchmarks.ReadAfterWriteBenchmark.tidemark");
    new Samples().publish("io.tidemark.benchmarks.ReadAfterWriteBenchmark.floor");

    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"benchmark\":\"io.tidemark.benchmarks.ReadAfterWriteBenchmark.tidemark\","
                + "\"series\":{\"floor\":[50,20],\"read\":[300,70],\"excess\":[250,50]},"
                + "\"counts\":{\"reads\":2,\"sourceReads\":1}}\n"
                + "{\"benchmark\":\"io.tidemark.benchmarks.ReadAfterWriteBenchmark.floor\","
                + "\"series\":{},\"counts\":{}}\n");
  }

  @Test
  void theReportReadsBackWhatTwoForksWrote() throws IOException {
    System.setProperty("tidemark.bench.samples", folder.resolve("run-samples.jsonl").toString());
    for (long floor : List.of(1_000_000L, 3_000_000L)) {
      Samples fork = new Samples();
      fork.read(0, floor, 2 * floor, true);
      fork.publish("io.tidemark.benchmarks.ReadAfterWriteBenchmark.tidemark");
    }

    ResultsReport.main(new String[] {folder.toString(), "run", "MySQL 9.7"});

    // Pooled: 2 writes; nearest-rank p50 of {1, 3} ms is 1 ms, p90 and p99 are 3 ms.
    assertThat(Files.readString(folder.resolve("run.md"), StandardCharsets.UTF_8))
        .contains("| tidemark | 2 | 1000 / 3000 / 3000 | 2000 / 6000 / 6000 | 1000 / 3000 / 3000 |")
        .contains("| Tidemark (default 1 s budget) | 2 | 2000 / 6000 / 6000 | 2.00 | 0.0% |");
  }
}
