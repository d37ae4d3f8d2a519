package io.tidemark.spring.actuate;

import io.micrometer.common.KeyValues;
import io.tidemark.ExecutionRecord;
import java.time.Duration;

/**
 * The {@code tidemark.read} observation's name and key values. Low cardinality, the same four keys
 * whatever the outcome, as Prometheus requires of one meter name: {@code method} ({@code
 * Class.method}), {@code outcome} (the record's reason code; {@value #ERROR} for a read that failed
 * without one, such as a failing query; {@value #UNKNOWN} while it runs), {@code node} (the
 * configured name; {@code none} when no node answered) and {@code role} ({@code SOURCE}, {@code
 * REPLICA}, or {@code NONE}). High cardinality, once recorded: {@code acquiring.ms}, {@code
 * waited.ms} and {@code querying.ms}.
 */
public class DefaultReadObservationConvention implements ReadObservationConvention {

  /** The observation's name, and the timer's that Boot derives from it. */
  public static final String NAME = "tidemark.read";

  /** The outcome of a read that failed without an execution record. */
  public static final String ERROR = "ERROR";

  /** The outcome of a read that has not ended yet, as its long task timer shows it. */
  public static final String UNKNOWN = "UNKNOWN";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(ReadObservationContext context) {
    return "tidemark read " + context.getMethod();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(ReadObservationContext context) {
    ExecutionRecord record = context.getRecord();
    String outcome;
    if (record != null) {
      outcome = record.reason().name();
    } else {
      outcome = context.getError() != null ? ERROR : UNKNOWN;
    }
    return KeyValues.of(
        "method",
        context.getMethod(),
        "outcome",
        outcome,
        "node",
        context.getNode(),
        "role",
        record != null ? record.role().name() : "NONE");
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(ReadObservationContext context) {
    ExecutionRecord record = context.getRecord();
    if (record == null) {
      return KeyValues.empty();
    }
    return KeyValues.of(
        "acquiring.ms",
        millis(record.acquiring()),
        "waited.ms",
        millis(record.waited()),
        "querying.ms",
        millis(record.querying()));
  }

  private static String millis(Duration duration) {
    return String.valueOf(duration.toNanos() / 1_000_000.0);
  }
}
