package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class ReadListenerTests {

  private static final ExecutionRecord SERVED =
      new ExecutionRecord(
          "replica1",
          NodeRole.REPLICA,
          Reason.REPLICA_CAUGHT_UP,
          Duration.ZERO,
          Duration.ZERO,
          Duration.ZERO,
          Duration.ZERO);

  @Test
  void allTellsEachListenerInItsOrder() {
    List<String> told = new ArrayList<>();
    ReadListener both = ReadListener.all(List.of(telling("first", told), telling("second", told)));

    ReadListener.Read read = both.started("Orders.find");
    read.waiting("replica1", true).ended(true);
    read.ended(SERVED, null);

    assertThat(told)
        .containsExactly(
            "first started Orders.find",
            "second started Orders.find",
            "first waiting replica1 true",
            "second waiting replica1 true",
            "first reached true",
            "second reached true",
            "first ended REPLICA_CAUGHT_UP",
            "second ended REPLICA_CAUGHT_UP");
    assertThat(ReadListener.all(List.of())).isSameAs(ReadListener.NONE);
  }

  @Test
  void ofRecordsIsToldOnlyOfRecords() {
    List<ExecutionRecord> records = new ArrayList<>();
    ReadListener listener = ReadListener.ofRecords(records::add);

    listener.started("a").ended(null, new IllegalStateException("the query's own"));
    listener.started("b").waiting("replica1", false).ended(false);
    listener.started("c").ended(SERVED, null);

    assertThat(records).containsExactly(SERVED);
  }

  private static ReadListener telling(String who, List<String> told) {
    return name -> {
      told.add(who + " started " + name);
      return new ReadListener.Read() {
        @Override
        public ReadListener.Wait waiting(String node, boolean coalesced) {
          told.add(who + " waiting " + node + " " + coalesced);
          return reached -> told.add(who + " reached " + reached);
        }

        @Override
        public void ended(@Nullable ExecutionRecord record, @Nullable Throwable failure) {
          told.add(who + " ended " + (record == null ? null : record.reason()));
        }
      };
    };
  }
}
