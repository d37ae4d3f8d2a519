package io.tidemark.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * A benchmark against real servers that also records figures of its own into {@link Samples}, in
 * measurement iterations only; each subclass publishes them when its trial ends.
 */
public abstract class SampledBenchmark extends ServerBenchmark {

  /** The trial's own figures. */
  final Samples samples = new Samples();

  /** Whether the current iteration is measured, so that its figures count. */
  boolean recording;

  @Setup(Level.Iteration)
  public void iteration(IterationParams params) {
    recording = params.getType() == IterationType.MEASUREMENT;
  }
}
