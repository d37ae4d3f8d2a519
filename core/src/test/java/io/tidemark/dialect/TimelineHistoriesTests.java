package io.tidemark.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLDataException;
import org.junit.jupiter.api.Test;

class TimelineHistoriesTests {

  private static final long SYSTEM = 7_451_234_567_890_123_456L;

  @Test
  void readsTheSwitchPointsOfATimelineHistory() throws SQLDataException {
    String file =
        """
        1\t0/3000158\tno recovery target specified

        # a comment
        2\t0/5000A28\tno recovery target specified
        """;

    assertThat(TimelineHistories.history(SYSTEM, file))
        .containsExactly(
            new WalPosition(SYSTEM, 1, 0x3000158L), new WalPosition(SYSTEM, 2, 0x5000A28L));
    assertThat(TimelineHistories.history(SYSTEM, "")).isEmpty();
  }

  @Test
  void refusesAHistoryItCannotRead() {
    for (String file : new String[] {"1", "x\t0/1\twhy", "1\t0-1\twhy"}) {
      assertThatThrownBy(() -> TimelineHistories.history(SYSTEM, file))
          .as(file)
          .isInstanceOf(SQLDataException.class);
    }
  }
}
