package io.tidemark.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every benchmark against real servers shares, inherited as JMH's annotations are:
 * sampled latency in microseconds, one state per trial, two forks, short warm-up and measurement
 * (the servers' own noise outweighs longer runs). A subclass may override any of them.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(2)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public abstract class ServerBenchmark {}
