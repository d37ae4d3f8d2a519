package io.tidemark.spring.routing;

import io.tidemark.ExecutionRecord;
import io.tidemark.jdbc.WaitListener;

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

  /**
   * Told, inside {@link #observe}, that the read begins to wait for the replica named {@code node};
   * the result is told how the wait ended. By default nothing.
   */
  default WaitListener.Ended waiting(String node, boolean coalesced) {
    return reached -> {};
  }

  /** One read, as {@link #observe} runs it. */
  @FunctionalInterface
  interface ObservedRead<T> {
    T run() throws Throwable;
  }
}
