package io.tidemark.store;

import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link TokenStoreStats}; adders, because every request touches them. */
final class StoreCounters {

  private final LongAdder reads = new LongAdder();
  private final LongAdder unknownReads = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private final LongAdder failedWrites = new LongAdder();

  ScopeToken read(ScopeToken token) {
    reads.increment();
    if (token.status() == ScopeToken.Status.UNKNOWN) {
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

  TokenStoreStats snapshot() {
    return new TokenStoreStats(reads.sum(), unknownReads.sum(), writes.sum(), failedWrites.sum());
  }
}
