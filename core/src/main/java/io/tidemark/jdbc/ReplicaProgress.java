package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * For each server, by {@code server_uuid}, a lower bound of what it has executed, learned from
 * waits that returned 0, so that when the bound already contains a token the wait's round trip can
 * be skipped.
 *
 * <p>The bound is evidence of one run of the server, not of its UUID: a server restored from an
 * older snapshot, re-cloned or rebuilt keeps its UUID and comes back with less. Each of those
 * restarts the server, which ends every connection to its earlier run, so a physical connection
 * this reader has not seen before drops what was known of its server (with drivers other than
 * Connector/J, whose connections cannot be told apart, every use counts as new: no fast path). The
 * bound is also kept small: past {@value #MAX_INTERVALS} intervals it is replaced by the latest
 * token reached.
 */
final class ReplicaProgress {

  static final int MAX_INTERVALS = 1_024;

  private final ConcurrentMap<String, GtidSet> executed = new ConcurrentHashMap<>();
  private final Map<PhysicalConnection, Boolean> seen =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** Called for every replica connection a read uses, before {@link #contains} is asked. */
  void connected(PhysicalConnection connection, String serverUuid) {
    if (seen.putIfAbsent(connection, Boolean.TRUE) == null) {
      executed.remove(serverUuid);
    }
  }

  boolean contains(String serverUuid, GtidSet token) {
    GtidSet known = executed.get(serverUuid);
    return known != null && known.containsAll(token);
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
