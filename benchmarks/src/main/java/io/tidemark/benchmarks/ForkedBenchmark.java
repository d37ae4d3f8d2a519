package io.tidemark.benchmarks;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What every benchmark of this module shares, inherited as JMH's annotations are: one state per
 * trial and two forks. A subclass sets how it measures, and may override either.
 */
@State(Scope.Benchmark)
@Fork(2)
public abstract class ForkedBenchmark {}
