package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.postgres.WalPosition;
import org.junit.jupiter.api.Test;

class PostgresDialectTests {

  private static final long SYSTEM = 7_451_234_567_890_123_456L;

  @Test
  void theWaitIsOneBoundedServerSideLoopOfNumbersOnly() {
    String wait = PostgresDialect.waitStatement(new WalPosition(SYSTEM, 3, 0x16_B374_D848L), 250);

    assertThat(wait)
        .startsWith("DO $wait$")
        .contains("interval '250 milliseconds'")
        .contains("received_tli = 3")
        .contains("pg_last_wal_replay_lsn() < '16/B374D848'::pg_lsn")
        .contains("pg_sleep(0.001)")
        .contains("ERRCODE = '" + PostgresDialect.WAIT_EXPIRED + "'");
  }
}
