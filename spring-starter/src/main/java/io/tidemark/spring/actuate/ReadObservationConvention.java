package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The name and key values of the {@code tidemark.read} observation. A bean of this type replaces
 * {@link DefaultReadObservationConvention}, which it may extend; a {@code
 * GlobalObservationConvention} registered on the registry takes precedence over both.
 */
public interface ReadObservationConvention extends ObservationConvention<ReadObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof ReadObservationContext;
  }
}
