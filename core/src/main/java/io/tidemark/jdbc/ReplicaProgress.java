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
 * restarts the server, which ends every connection to it: each new connection tells what the server
 * has executed, and the bound becomes that (lowered when the server lacks part of it, and small, as
 * a server's own set is). The bound is also kept with the run it was learned on (the server's start
 * time), so a connection to another run drops it; and past {@value #MAX_INTERVALS} intervals it is
 * replaced by the latest token reached.
 */
final class ReplicaProgress {

  static final int MAX_INTERVALS = 1_024;

  private record Known(PhysicalConnection.Server run, GtidSet executed) {}

  private final ConcurrentMap<String, Known> known = new ConcurrentHashMap<>();

  /**
   * Called for every replica connection a read uses, before {@link #contains} is asked: drops what
   * was known of the server when the connection reaches another run of it.
   */
  void connected(PhysicalConnection.Server server) {
    Known k = known.get(server.uuid());
    if (k == null || !k.run().sameRunAs(server)) {
      known.compute(
          server.uuid(),
          (uuid, old) ->
              old != null && old.run().sameRunAs(server) ? old : new Known(server, GtidSet.EMPTY));
    }
  }

  /** What a new connection to {@code server} saw it had executed: the bound from now on. */
  void seen(PhysicalConnection.Server server, GtidSet executed) {
    known.put(server.uuid(), new Known(server, executed));
  }

  boolean contains(String serverUuid, GtidSet token) {
    Known k = known.get(serverUuid);
    return k != null && k.executed().containsAll(token);
  }

  /** Notes that {@code server} reached {@code reached}, unless another run is known by now. */
  void advance(PhysicalConnection.Server server, GtidSet reached) {
    known.compute(
        server.uuid(),
        (uuid, k) -> {
          if (k == null || !k.run().sameRunAs(server)) {
            return new Known(server, reached);
          }
          GtidSet union = k.executed().union(reached);
          return new Known(k.run(), union.intervalCount() > MAX_INTERVALS ? reached : union);
        });
  }
}
