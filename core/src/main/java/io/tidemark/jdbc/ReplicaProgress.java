package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * For each server, by {@code server_uuid}, a lower bound of what it has executed, learned from
 * waits that returned 0, so that when the bound already contains a token the wait's round trip can
 * be skipped.
 *
 * <p>The bound is evidence of one run of the server, not of its UUID: a server restored from an
 * older snapshot, re-cloned or rebuilt keeps its UUID and comes back with less. Each of those
 * restarts the server, which ends every connection to it, and each new connection tells what the
 * server has executed: the bound becomes that (lowered when the server lacks part of it, and small,
 * as a server's own set is). Past {@value #MAX_INTERVALS} intervals it is replaced by the latest
 * token reached.
 */
final class ReplicaProgress {

  static final int MAX_INTERVALS = 1_024;

  private final ConcurrentMap<String, GtidSet> executed = new ConcurrentHashMap<>();

  /** What a new connection to the server saw it had executed: the bound from now on. */
  void seen(String serverUuid, GtidSet executedNow) {
    executed.put(serverUuid, executedNow);
  }

  boolean contains(String serverUuid, GtidSet required) {
    GtidSet known = executed.get(serverUuid);
    return known != null && known.containsAll(required);
  }

  void advance(String serverUuid, GtidSet reached) {
    executed.merge(
        serverUuid,
        reached,
        (known, more) -> {
          GtidSet union = known.union(more);
          return union.intervalCount() > MAX_INTERVALS ? more : union;
        });
  }
}
