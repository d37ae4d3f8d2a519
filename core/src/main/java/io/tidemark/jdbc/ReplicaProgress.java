package io.tidemark.jdbc;

import io.tidemark.GtidSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * For each server, by {@code server_uuid}, a lower bound of what it has executed, learned from
 * waits that returned 0 and checks that passed. A server's executed set only grows, so when the
 * bound already contains a token the wait's round trip can be skipped.
 */
final class ReplicaProgress {

  private final ConcurrentMap<String, GtidSet> executed = new ConcurrentHashMap<>();

  boolean contains(String serverUuid, GtidSet token) {
    GtidSet known = executed.get(serverUuid);
    return known != null && known.containsAll(token);
  }

  void advance(String serverUuid, GtidSet reached) {
    executed.merge(serverUuid, reached, GtidSet::union);
  }
}
