/** Metrics, observations, health and the actuator endpoint, with their auto-configuration. */
@NullMarked
package io.tidemark.spring.actuate;

import org.jspecify.annotations.NullMarked;
