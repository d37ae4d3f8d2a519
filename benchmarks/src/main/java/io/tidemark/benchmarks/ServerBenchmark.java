package io.tidemark.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every benchmark against real servers shares, inherited as JMH's annotations are:
 * sampled latency in microseconds, short warm-up and measurement (the servers' own noise outweighs
 * longer runs), and from {@link ForkedBenchmark} one state per trial and two forks. A subclass may
 * override any of them.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public abstract class ServerBenchmark extends ForkedBenchmark {}
