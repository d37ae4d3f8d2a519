package io.tidemark.spring.routing;

import io.tidemark.ExecutionRecord;

/**
 * What observability attaches to reads under {@code @ReadYourWrites}: every bean of this type is
 * called for every read, in bean order. The starter's metrics and observation implement it.
 */
public interface ReadInstrumentation {

  /** Told of every read once it ended, served or failed. */
  void recorded(ExecutionRecord record);

  /**
   * Runs {@code read}, the whole read of one annotated method (connection, wait and query), inside
   * whatever this instrumentation observes it with.
   */
  <T> T observe(String method, ObservedRead<T> read) throws Throwable;

  /** One read, as {@link #observe} runs it. */
  @FunctionalInterface
  interface ObservedRead<T> {
    T run() throws Throwable;
  }
}
