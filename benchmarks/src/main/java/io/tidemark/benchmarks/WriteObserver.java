package io.tidemark.benchmarks;

/**
 * Times a write becoming visible on the replica, for the read-after-write benchmarks to pair their
 * reads with ({@link OwnWriteReads}).
 */
interface WriteObserver extends AutoCloseable {

  /** When the armed write became visible on the replica ({@link System#nanoTime}). */
  long visibleAt();

  @Override
  void close();
}
