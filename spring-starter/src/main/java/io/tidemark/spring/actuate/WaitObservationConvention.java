package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The name and key values of the {@code tidemark.read.wait} observation. A bean of this type
 * replaces {@link DefaultWaitObservationConvention}.
 */
public interface WaitObservationConvention extends ObservationConvention<WaitObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof WaitObservationContext;
  }
}
