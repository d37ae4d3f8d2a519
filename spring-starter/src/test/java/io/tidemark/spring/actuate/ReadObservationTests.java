package io.tidemark.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.Reason;
import io.tidemark.jdbc.ReadListener;
import io.tidemark.spring.autoconfigure.TestNodes;
import io.tidemark.topology.TopologySnapshot;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class ReadObservationTests {

  private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
  private final ObservationRegistry registry = ObservationRegistry.create();
  private final ReadObservation observation =
      new ReadObservation(
          registry,
          new NodeNames(
              new TopologySnapshot(
                      List.of(
                          TestNodes.source("db1", TestNodes.SOURCE_UUID),
                          TestNodes.replica("db2", TestNodes.REPLICA_UUID, Duration.ZERO)))
                  ::nameOf),
          null,
          null);

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
        read(
            observation,
            "Orders.find",
            record(Reason.REPLICA_AFTER_WAIT),
            read -> {
              assertThat(registry.getCurrentObservation()).isNotNull();
              return "row";
            });

    assertThat(value).isEqualTo("row");
    assertThat(stopped).hasSize(1);
    Observation.Context context = stopped.get(0);
    assertThat(context.getName()).isEqualTo(DefaultReadObservationConvention.NAME);
    assertThat(context.getLowCardinalityKeyValues())
        .containsExactlyInAnyOrder(
            KeyValue.of("method", "Orders.find"),
            KeyValue.of("outcome", "REPLICA_AFTER_WAIT"),
            KeyValue.of("node", "db2"),
            KeyValue.of("role", "REPLICA"));
    assertThat(context.getHighCardinalityKeyValues())
        .containsExactlyInAnyOrder(
            KeyValue.of("acquiring.ms", "1.5"),
            KeyValue.of("waited.ms", "120.0"),
            KeyValue.of("querying.ms", "0.25"));
    assertThat(context.getError()).isNull();
    assertThat(registry.getCurrentObservation()).as("the read's scope is closed").isNull();
  }

  @Test
  void eachWaitIsAChildObservationOfTheRead() throws Throwable {
    TestObservationRegistry test = TestObservationRegistry.create();
    ReadObservation observed =
        new ReadObservation(test, new NodeNames(uuid -> Optional.empty()), null, null);

    read(
        observed,
        "Orders.find",
        record(Reason.REPLICA_AFTER_WAIT),
        read -> {
          read.waiting("db2", true).ended(false);
          read.waiting("db2", false).ended(true);
          return "row";
        });

    TestObservationRegistryAssert.assertThat(test)
        .hasNumberOfObservationsWithNameEqualTo(DefaultWaitObservationConvention.NAME, 2)
        .hasObservationWithNameEqualTo(DefaultReadObservationConvention.NAME)
        .that()
        .hasLowCardinalityKeyValue("outcome", "REPLICA_AFTER_WAIT")
        .hasBeenStopped();
    TestObservationRegistryAssert.assertThat(test)
        .hasAnObservation(
            wait ->
                wait.hasNameEqualTo(DefaultWaitObservationConvention.NAME)
                    .hasLowCardinalityKeyValue("node", "db2")
                    .hasLowCardinalityKeyValue("coalesced", "true")
                    .hasLowCardinalityKeyValue("outcome", "NOT_REACHED"))
        .hasAnObservation(
            wait ->
                wait.hasNameEqualTo(DefaultWaitObservationConvention.NAME)
                    .hasLowCardinalityKeyValue("coalesced", "false")
                    .hasLowCardinalityKeyValue("outcome", "REACHED"));
  }

  @Test
  void theWaitsParentIsTheRead() throws Throwable {
    read(
        observation,
        "Orders.find",
        null,
        read -> {
          read.waiting("db2", false).ended(true);
          return "row";
        });

    assertThat(stopped)
        .extracting(Observation.Context::getName)
        .containsExactly(
            DefaultWaitObservationConvention.NAME, DefaultReadObservationConvention.NAME);
    ObservationView parent = stopped.get(0).getParentObservation();
    assertThat(parent).isNotNull();
    assertThat(parent.getContextView()).isSameAs(stopped.get(1));
  }

  @Test
  void aReadInsideAnotherIsItsChild() throws Throwable {
    read(observation, "Outer.find", null, outer -> read(observation, "Inner.find", null, r -> 1));

    assertThat(stopped).hasSize(2);
    ObservationView parent = stopped.get(0).getParentObservation();
    assertThat(parent).isNotNull();
    assertThat(parent.getContextView()).isSameAs(stopped.get(1));
    assertThat(registry.getCurrentObservation()).isNull();
  }

  @Test
  void aRefusedReadKeepsItsReasonAndItsError() {
    IllegalStateException refused = new IllegalStateException("WAIT_TIMEOUT: ...");
    assertThatThrownBy(
            () ->
                read(
                    observation,
                    "Orders.find",
                    record(Reason.WAIT_TIMEOUT),
                    read -> {
                      throw refused;
                    }))
        .isSameAs(refused);

    Observation.Context context = stopped.get(0);
    assertThat(context.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("WAIT_TIMEOUT");
    assertThat(context.getError()).isSameAs(refused);
  }

  @Test
  void aFailureWithoutARecordIsAnError() {
    assertThatThrownBy(this::readOfAMissingTable).isInstanceOf(SQLException.class);

    assertThat(stopped.get(0).getLowCardinalityKeyValue("outcome").getValue())
        .isEqualTo(DefaultReadObservationConvention.ERROR);
  }

  @Test
  void everyReadHasTheSameLowCardinalityKeysWhateverItsEnd() throws Throwable {
    read(observation, "Orders.find", null, read -> null);
    read(observation, "Orders.find", record(Reason.REPLICA_CAUGHT_UP), read -> null);
    assertThatThrownBy(this::readOfAMissingTable);

    assertThat(stopped)
        .extracting(
            context -> context.getLowCardinalityKeyValues().stream().map(KeyValue::getKey).toList())
        .containsOnly(List.of("method", "node", "outcome", "role"));
    assertThat(stopped.get(2).getLowCardinalityKeyValue("node").getValue())
        .isEqualTo(NodeNames.NONE);
    assertThat(stopped.get(2).getLowCardinalityKeyValue("role").getValue()).isEqualTo("NONE");
  }

  @Test
  void namesNoNodeAndUnknownUuidsWithoutTaggingTheUuid() throws Throwable {
    ExecutionRecord unknown =
        new ExecutionRecord(
            "5a33bc69-93ec-33a3-b055-ea2ccb64b784",
            NodeRole.REPLICA,
            Reason.REPLICA_NO_TOKEN,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ZERO);
    read(observation, "Orders.find", unknown, read -> null);

    assertThat(stopped.get(0).getLowCardinalityKeyValue("node").getValue())
        .isEqualTo(NodeNames.UNKNOWN);
  }

  @Test
  void anApplicationsConventionNamesAndTagsTheRead() throws Throwable {
    ReadObservation renamed =
        new ReadObservation(
            registry, new NodeNames(uuid -> Optional.empty()), new TeamReadConvention(), null);

    read(renamed, "Orders.find", null, read -> null);

    assertThat(stopped.get(0).getName()).isEqualTo("shop.read");
    assertThat(stopped.get(0).getLowCardinalityKeyValue("team").getValue()).isEqualTo("orders");
  }

  /**
   * Runs {@code body} as the reader runs a read: started, then ended with {@code record} and what
   * it threw.
   */
  /** A read of Orders.find, without a record, that fails for a missing table. */
  private void readOfAMissingTable() throws Throwable {
    read(
        observation,
        "Orders.find",
        null,
        read -> {
          throw new SQLException("table missing");
        });
  }

  private static <T> T read(
      ReadListener listener, String name, @Nullable ExecutionRecord record, Body<T> body)
      throws Throwable {
    ReadListener.Read read = listener.started(name);
    try {
      T value = body.run(read);
      read.ended(record, null);
      return value;
    } catch (Throwable e) {
      read.ended(record, e);
      throw e;
    }
  }

  @FunctionalInterface
  private interface Body<T> {
    T run(ReadListener.Read read) throws Throwable;
  }

  private static ExecutionRecord record(Reason reason) {
    return new ExecutionRecord(
        TestNodes.REPLICA_UUID,
        NodeRole.REPLICA,
        reason,
        Duration.ofNanos(1_500_000),
        Duration.ofMillis(120),
        Duration.ofNanos(250_000),
        Duration.ofMillis(122));
  }
}
