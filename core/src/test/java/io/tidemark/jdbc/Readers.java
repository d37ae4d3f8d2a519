package io.tidemark.jdbc;

import io.tidemark.ReadPolicy;
import java.time.Duration;
import javax.sql.DataSource;

/** Readers the tests build as an application would. */
final class Readers {

  private Readers() {}

  /**
   * A reader that refuses a read it cannot serve from a replica within {@code budget}: falling back
   * to the source would hide what the test looks at.
   */
  static ConsistentReader failingAfter(DataSource replicas, DataSource source, Duration budget) {
    return ConsistentReader.builder(replicas, source)
        .defaults(ReadOptions.defaults().withPolicy(ReadPolicy.FAIL).withTimeout(budget))
        .build();
  }
}
