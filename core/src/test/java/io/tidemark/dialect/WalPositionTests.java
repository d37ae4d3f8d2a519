package io.tidemark.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import java.sql.SQLDataException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class WalPositionTests {

  private static final long SYSTEM = 7_451_234_567_890_123_456L;
  private static final int BLOCK = 8192;
  private static final long SEGMENT = 16L * 1024 * 1024;

  @Test
  void readsAndPrintsPostgresLsnText() throws SQLDataException {
    assertThat(WalPosition.parseLsn("0/0")).isZero();
    assertThat(WalPosition.parseLsn("16/B374D848")).isEqualTo(0x16_B374_D848L);
    assertThat(WalPosition.parseLsn("FFFFFFFF/FFFFFFFF")).isEqualTo(-1L);
    assertThat(WalPosition.text(0x16_B374_D848L)).isEqualTo("16/B374D848");
    assertThat(WalPosition.text(0x3_0000_0000L)).isEqualTo("3/0");
  }

  @Test
  void refusesTextThatIsNoLsn() {
    for (String text : new String[] {"", "/", "0/", "/0", "16B374D848", "G/0", "123456789/0"}) {
      assertThatThrownBy(() -> WalPosition.parseLsn(text))
          .as(text)
          .isInstanceOf(SQLDataException.class)
          .hasMessageContaining("not a PostgreSQL LSN");
    }
  }

  @Test
  void anOriginIsTheSystemAndTimelineAndNoMySqlUuid() {
    UUID origin = WalPosition.origin(SYSTEM, 3);
    GtidSet set = new WalPosition(SYSTEM, 3, 1_000).toGtidSet();

    assertThat(set.uuids()).containsExactly(origin);
    assertThat(WalPosition.in(set, origin)).isEqualTo(new WalPosition(SYSTEM, 3, 1_000));
    UUID mysql = UUID.fromString("3e11fa47-71ca-11e1-9e33-c80aa9429562");
    assertThat(WalPosition.in(GtidSet.parse(mysql + ":1-5"), mysql)).isNull();
    assertThat(origin.variant()).isNotEqualTo(UUID.randomUUID().variant());
  }

  @Test
  void unionKeepsTheFurthestPositionOfEachTimelineAndContainmentComparesThem() {
    GtidSet early = new WalPosition(SYSTEM, 1, 1_000).toGtidSet();
    GtidSet late = new WalPosition(SYSTEM, 1, 5_000).toGtidSet();
    GtidSet next = new WalPosition(SYSTEM, 2, 6_000).toGtidSet();

    assertThat(early.union(late)).isEqualTo(late);
    assertThat(late.containsAll(early)).isTrue();
    assertThat(early.containsAll(late)).isFalse();
    assertThat(late.containsAll(next)).isFalse();
    GtidSet both = late.union(next);
    assertThat(WalPosition.in(both, WalPosition.origin(SYSTEM, 1)).lsn()).isEqualTo(5_000);
    assertThat(WalPosition.in(both, WalPosition.origin(SYSTEM, 2)).lsn()).isEqualTo(6_000);
  }

  @Test
  void positionZeroIsTheEmptySet() {
    assertThat(new WalPosition(SYSTEM, 1, 0).toGtidSet()).isEqualTo(GtidSet.EMPTY);
    assertThat(new WalPosition(SYSTEM, 1, 1).toGtidSet().intervalCount()).isEqualTo(1);
  }

  @Test
  void refusesTimelinesAndPositionsPostgresOrATokenCannotHave() {
    assertThatThrownBy(() -> new WalPosition(SYSTEM, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new WalPosition(SYSTEM, 1L << 32, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new WalPosition(SYSTEM, 1, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FFFFFFFF/FFFFFFFF");
  }

  @Test
  void anInsertPositionPastAPageHeaderMovesBackToThePageStart() {
    long page = 5 * SEGMENT + 3 * BLOCK;
    assertThat(WalPosition.lastRecordEnd(page + 24, BLOCK, SEGMENT)).isEqualTo(page);
    assertThat(WalPosition.lastRecordEnd(5 * SEGMENT + 40, BLOCK, SEGMENT)).isEqualTo(5 * SEGMENT);
    // Past a short header, 40 is a record's start (after a continued record), not a header's end.
    assertThat(WalPosition.lastRecordEnd(page + 40, BLOCK, SEGMENT)).isEqualTo(page + 40);
    assertThat(WalPosition.lastRecordEnd(page + 48, BLOCK, SEGMENT)).isEqualTo(page + 48);
    assertThat(WalPosition.lastRecordEnd(page + 8000, BLOCK, SEGMENT)).isEqualTo(page + 8000);
  }

  @Test
  void printsAsPostgresDoes() {
    assertThat(new WalPosition(SYSTEM, 2, 0x16_B374_D848L))
        .hasToString("16/B374D848 on timeline 2 of system 7451234567890123456");
  }
}
