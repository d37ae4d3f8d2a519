package io.tidemark.scope;

import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link ScopeStore.Stats}; adders, because every request touches them. */
final class StoreCounters {

  private final LongAdder reads = new LongAdder();
  private final LongAdder unknownReads = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private final LongAdder failedWrites = new LongAdder();

  ScopeState read(ScopeState token) {
    reads.increment();
    if (token.status() == ScopeState.Status.UNKNOWN) {
      unknownReads.increment();
    }
    return token;
  }

  boolean wrote(boolean stored) {
    writes.increment();
    if (!stored) {
      failedWrites.increment();
    }
    return stored;
  }

  ScopeStore.Stats snapshot() {
    return new ScopeStore.Stats(reads.sum(), unknownReads.sum(), writes.sum(), failedWrites.sum());
  }
}
