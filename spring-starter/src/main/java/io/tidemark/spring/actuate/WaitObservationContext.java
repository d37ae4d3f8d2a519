package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * One wait of a read for a replica to execute its token, a {@code tidemark.read.wait} observation
 * inside the read's: what a {@link WaitObservationConvention} makes key values of.
 */
public final class WaitObservationContext extends Observation.Context {

  private final String node;
  private final boolean coalesced;
  private @Nullable Boolean reached;

  WaitObservationContext(String node, boolean coalesced) {
    this.node = node;
    this.coalesced = coalesced;
  }

  /** The configured name of the replica waited on. */
  public String getNode() {
    return node;
  }

  /** Whether the read followed another read's wait on the same replica instead of its own. */
  public boolean isCoalesced() {
    return coalesced;
  }

  /** Whether the replica executed the token in time; {@code null} while the wait lasts. */
  public @Nullable Boolean getReached() {
    return reached;
  }

  void ended(boolean reached) {
    this.reached = reached;
  }
}
