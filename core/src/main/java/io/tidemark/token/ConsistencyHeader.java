package io.tidemark.token;

import io.tidemark.token.TokenRejectedException.Check;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * An immutable header value holding signed tokens by cluster, {@code orders=<token>,
 * payments=<token>}: a service verifies the clusters it reads from and forwards the others
 * untouched, so a chain of services that own different databases keeps every write's token.
 *
 * <p>Read with {@link TokenCodec#parseHeader}, which enforces the size limit before reading; a
 * cluster that appears twice (as when two header fields were joined) keeps both tokens. {@link
 * #toString()} writes the entries sorted by cluster, separated by a comma and a space.
 */
public final class ConsistencyHeader {

  /** The header without tokens; its value is the empty string. */
  public static final ConsistencyHeader EMPTY = new ConsistencyHeader(new TreeMap<>());

  /** Unmodifiable lists: {@link #tokens(String)} hands them out as they are. */
  private final SortedMap<String, List<String>> tokens;

  private ConsistencyHeader(SortedMap<String, List<String>> tokens) {
    this.tokens = tokens;
  }

  /**
   * Reads {@code name=token} entries separated by commas with optional spaces or tabs around them;
   * empty entries are skipped, as HTTP lists allow. Tokens are not verified here, only checked to
   * consist of the characters tokens are written with.
   */
  static ConsistencyHeader parse(@Nullable String value, int maxLength) {
    if (value == null) {
      return EMPTY;
    }
    if (value.length() > maxLength) {
      throw new TokenRejectedException(
          Check.TOO_LARGE,
          "token header of " + value.length() + " characters is longer than " + maxLength);
    }
    SortedMap<String, List<String>> tokens = new TreeMap<>();
    int pos = 0;
    int length = value.length();
    while (pos < length) {
      int end = value.indexOf(',', pos);
      if (end < 0) {
        end = length;
      }
      int from = skipSpace(value, pos, end);
      int to = trimSpace(value, from, end);
      if (from < to) {
        int equals = value.indexOf('=', from);
        if (equals < 0 || equals >= to) {
          throw malformed("an entry without '='", from);
        }
        String cluster = value.substring(from, equals);
        String token = value.substring(equals + 1, to);
        if (!ConsistencyToken.isClusterName(cluster)) {
          throw malformed("an invalid cluster name", from);
        }
        if (!TokenText.isTokenText(token)) {
          throw malformed("an invalid token for cluster " + cluster, equals + 1);
        }
        tokens.merge(cluster, List.of(token), ConsistencyHeader::union);
      }
      pos = end + 1;
    }
    return tokens.isEmpty() ? EMPTY : new ConsistencyHeader(tokens);
  }

  /** The clusters this header holds tokens for, sorted. */
  public Set<String> clusters() {
    return Collections.unmodifiableSet(tokens.keySet());
  }

  /** The encoded tokens for {@code cluster}, usually one; empty when there are none. */
  public List<String> tokens(String cluster) {
    List<String> list = tokens.get(cluster);
    return list == null ? List.of() : list;
  }

  /**
   * This header with {@code encodedToken} as the only token for {@code cluster}; every other
   * cluster's tokens stay as they were.
   *
   * @throws IllegalArgumentException when the cluster name or the token text is not valid
   */
  public ConsistencyHeader with(String cluster, String encodedToken) {
    ConsistencyToken.checkCluster(cluster);
    if (!TokenText.isTokenText(encodedToken)) {
      throw new IllegalArgumentException("not an encoded token: " + encodedToken);
    }
    SortedMap<String, List<String>> copy = new TreeMap<>(tokens);
    copy.put(cluster, List.of(encodedToken));
    return new ConsistencyHeader(copy);
  }

  /** {@code tokens} followed by the tokens of {@code added} it does not hold yet, unmodifiable. */
  private static List<String> union(List<String> tokens, List<String> added) {
    List<String> all = new ArrayList<>(tokens);
    for (String token : added) {
      if (!all.contains(token)) {
        all.add(token);
      }
    }
    return all.size() == tokens.size() ? tokens : List.copyOf(all);
  }

  /** Whether this header holds no tokens. */
  public boolean isEmpty() {
    return tokens.isEmpty();
  }

  private static int skipSpace(String value, int from, int end) {
    int pos = from;
    while (pos < end && isSpace(value.charAt(pos))) {
      pos++;
    }
    return pos;
  }

  private static int trimSpace(String value, int from, int end) {
    int pos = end;
    while (pos > from && isSpace(value.charAt(pos - 1))) {
      pos--;
    }
    return pos;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t';
  }

  private static TokenRejectedException malformed(String problem, int position) {
    return new TokenRejectedException(
        Check.MALFORMED, "token header has " + problem + " at position " + position);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ConsistencyHeader other && tokens.equals(other.tokens);
  }

  @Override
  public int hashCode() {
    return tokens.hashCode();
  }

  /** The header value: {@code cluster=token} entries sorted by cluster, joined by ", ". */
  @Override
  public String toString() {
    return join(tokens);
  }

  /** The header value of {@code entries}: encoded tokens by cluster, in the map's order. */
  static String join(Map<String, List<String>> entries) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, List<String>> entry : entries.entrySet()) {
      for (String token : entry.getValue()) {
        if (!out.isEmpty()) {
          out.append(", ");
        }
        out.append(entry.getKey()).append('=').append(token);
      }
    }
    return out.toString();
  }
}
