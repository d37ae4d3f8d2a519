package io.tidemark.spring.autoconfigure;

import io.tidemark.token.ConsistencyHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The tokens of one request for clusters this application does not own: taken from the request's
 * header and from what downstream services returned, and written back into the response, so that a
 * chain of services that own different databases loses none of them. Never verified here: only the
 * cluster that owns a token can. Thread-safe; bound to the request's thread and to the tasks it
 * hands off.
 */
final class ForwardedTokens {

  private static final ThreadLocal<@Nullable ForwardedTokens> CURRENT = new ThreadLocal<>();

  private final String ownCluster;
  private final SortedMap<String, List<String>> byCluster = new TreeMap<>();

  /** The entries of {@code header} for every cluster but {@code ownCluster}. */
  ForwardedTokens(String ownCluster, ConsistencyHeader header) {
    this.ownCluster = ownCluster;
    for (String cluster : header.clusters()) {
      if (!cluster.equals(ownCluster)) {
        byCluster.put(cluster, List.copyOf(header.tokens(cluster)));
      }
    }
  }

  /** The forwarded tokens of the request on this thread, or {@code null} outside one. */
  static @Nullable ForwardedTokens current() {
    return CURRENT.get();
  }

  /** Binds {@code tokens} to this thread until the binding closes. */
  static PinnedRead.Binding bind(@Nullable ForwardedTokens tokens) {
    ForwardedTokens before = CURRENT.get();
    CURRENT.set(tokens);
    return () -> {
      if (before == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(before);
      }
    };
  }

  /** A copy of the tokens by cluster, sorted by cluster. */
  synchronized SortedMap<String, List<String>> snapshot() {
    return new TreeMap<>(byCluster);
  }

  /**
   * Takes the tokens a downstream service answered with. For each cluster it answered for, its
   * tokens replace those that were {@code sent} to it: it either verified them and merged them into
   * its answer (it owns the cluster) or passed them back unchanged. Tokens of that cluster that
   * arrived from elsewhere in the meantime are kept.
   */
  synchronized void received(ConsistencyHeader answer, Map<String, List<String>> sent) {
    for (String cluster : answer.clusters()) {
      if (cluster.equals(ownCluster)) {
        continue;
      }
      List<String> kept = new ArrayList<>(byCluster.getOrDefault(cluster, List.of()));
      kept.removeAll(sent.getOrDefault(cluster, List.of()));
      for (String token : answer.tokens(cluster)) {
        if (!kept.contains(token)) {
          kept.add(token);
        }
      }
      byCluster.put(cluster, List.copyOf(kept));
    }
  }
}
