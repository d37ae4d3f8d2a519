package io.tidemark.spring.actuate;

import io.micrometer.common.KeyValues;

/**
 * The {@code tidemark.read.wait} observation's name and key values, all of low cardinality: {@code
 * node} (the configured name of the replica), {@code coalesced} ({@code true} for a read that
 * followed another's wait) and {@code outcome} ({@code REACHED}, {@code NOT_REACHED}, or {@code
 * UNKNOWN} while it lasts).
 */
public class DefaultWaitObservationConvention implements WaitObservationConvention {

  /** The observation's name, and the timer's that Boot derives from it. */
  public static final String NAME = "tidemark.read.wait";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(WaitObservationContext context) {
    return "tidemark wait";
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(WaitObservationContext context) {
    Boolean reached = context.getReached();
    return KeyValues.of(
        "node",
        context.getNode(),
        "coalesced",
        String.valueOf(context.isCoalesced()),
        "outcome",
        reached == null ? "UNKNOWN" : reached ? "REACHED" : "NOT_REACHED");
  }
}
