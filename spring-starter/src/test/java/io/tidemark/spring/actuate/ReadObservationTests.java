package io.tidemark.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ReadObservationTests {

  private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
  private final ObservationRegistry registry = ObservationRegistry.create();
  private final ReadObservation observation = new ReadObservation(registry);

  ReadObservationTests() {
    registry
        .observationConfig()
        .observationHandler(
            new ObservationHandler<>() {
              @Override
              public void onStop(Observation.Context context) {
                stopped.add(context);
              }

              @Override
              public boolean supportsContext(Observation.Context context) {
                return true;
              }
            });
  }

  @Test
  void observesTheReadWithMethodAndTheRecordedOutcome() throws Throwable {
    String value =
        observation.observe(
            "Orders.find",
            () -> {
              assertThat(registry.getCurrentObservation()).isNotNull();
              observation.recorded(record(Reason.REPLICA_AFTER_WAIT));
              return "row";
            });

    assertThat(value).isEqualTo("row");
    assertThat(stopped).hasSize(1);
    Observation.Context context = stopped.get(0);
    assertThat(context.getName()).isEqualTo(ReadObservation.NAME);
    assertThat(context.getLowCardinalityKeyValues())
        .containsExactlyInAnyOrder(
            KeyValue.of("method", "Orders.find"), KeyValue.of("outcome", "REPLICA_AFTER_WAIT"));
    assertThat(context.getError()).isNull();
  }

  @Test
  void aRefusedReadKeepsItsReasonAndItsError() {
    IllegalStateException refused = new IllegalStateException("WAIT_TIMEOUT: ...");
    assertThatThrownBy(
            () ->
                observation.observe(
                    "Orders.find",
                    () -> {
                      observation.recorded(record(Reason.WAIT_TIMEOUT));
                      throw refused;
                    }))
        .isSameAs(refused);

    Observation.Context context = stopped.get(0);
    assertThat(context.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("WAIT_TIMEOUT");
    assertThat(context.getError()).isSameAs(refused);
  }

  @Test
  void aFailureWithoutARecordIsAnError() {
    assertThatThrownBy(
            () ->
                observation.observe(
                    "Orders.find",
                    () -> {
                      throw new SQLException("table missing");
                    }))
        .isInstanceOf(SQLException.class);

    assertThat(stopped.get(0).getLowCardinalityKeyValue("outcome").getValue())
        .isEqualTo(ReadObservation.ERROR);
  }

  @Test
  void recordsOutsideAnObservedReadAreIgnored() throws Throwable {
    observation.recorded(record(Reason.REPLICA_CAUGHT_UP));
    observation.observe(
        "Orders.find",
        () -> {
          observation.recorded(record(Reason.SOURCE_FALLBACK));
          return null;
        });
    observation.recorded(record(Reason.NO_READABLE_REPLICA));

    assertThat(stopped).hasSize(1);
    assertThat(stopped.get(0).getLowCardinalityKeyValue("outcome").getValue())
        .isEqualTo("SOURCE_FALLBACK");
  }

  private static ExecutionRecord record(Reason reason) {
    return new ExecutionRecord(
        "",
        NodeRole.REPLICA,
        reason,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ofMillis(1));
  }
}
