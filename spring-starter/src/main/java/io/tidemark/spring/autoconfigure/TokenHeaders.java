package io.tidemark.spring.autoconfigure;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistencyHeader;
import io.tidemark.ConsistencyToken;
import io.tidemark.GtidSet;
import io.tidemark.TokenCodec;
import io.tidemark.TokenOverflowException;
import io.tidemark.TokenRejectedException;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The consistency header as this application reads and writes it, on requests it serves and on
 * calls it makes: its own cluster's tokens verified and merged into the {@link ConsistencyContext},
 * every other cluster's tokens forwarded untouched.
 *
 * <p>A dirty context (a write whose GTID could not be captured) gets no token of this cluster: any
 * token would claim less than was written. Its reads already go to the source for the rest of the
 * unit of work; the client's next request carries no token of this cluster, and reads it without a
 * token get bounded staleness only. A token over the codec's limits is left out for the same
 * reason.
 */
final class TokenHeaders {

  private static final Log log = LogFactory.getLog(TokenHeaders.class);

  private final TokenCodec codec;
  private final String cluster;
  private final String name;

  TokenHeaders(TokenCodec codec, String cluster, String name) {
    this.codec = codec;
    this.cluster = cluster;
    this.name = name;
  }

  /** The header as {@code tidemark.cluster} and {@code tidemark.web.header} say. */
  static TokenHeaders of(TokenCodec codec, TidemarkProperties properties) {
    return new TokenHeaders(codec, properties.getCluster(), properties.getWeb().getHeader());
  }

  /** Name of the header. */
  String name() {
    return name;
  }

  /** Cluster whose tokens this application verifies and issues. */
  String cluster() {
    return cluster;
  }

  /**
   * Reads a header value (several header fields joined with commas, or none).
   *
   * @throws TokenRejectedException when the value is oversized or malformed, or a token of this
   *     cluster does not verify
   */
  Incoming read(@Nullable String value) {
    ConsistencyHeader header = codec.parseHeader(value);
    GtidSet gtids =
        codec.verify(header, cluster).map(ConsistencyToken::gtids).orElse(GtidSet.EMPTY);
    return new Incoming(gtids, header);
  }

  /**
   * Reads a header value as {@link #read} does, but goes on without what does not verify: a value
   * that cannot be read at all counts as none; when only this cluster's tokens fail, the other
   * clusters' are still forwarded.
   */
  Incoming readIgnoringInvalid(@Nullable String value) {
    ConsistencyHeader header;
    try {
      header = codec.parseHeader(value);
    } catch (TokenRejectedException e) {
      ignored(e);
      return Incoming.NONE;
    }
    try {
      return new Incoming(
          codec.verify(header, cluster).map(ConsistencyToken::gtids).orElse(GtidSet.EMPTY), header);
    } catch (TokenRejectedException e) {
      ignored(e);
      return new Incoming(GtidSet.EMPTY, header);
    }
  }

  // At debug: any client can send a bad token, so a log line per request would be theirs to fill.
  private void ignored(TokenRejectedException e) {
    log.debug("Ignored a " + name + " header (" + e.reason() + "): " + e.getMessage());
  }

  /**
   * What a call from this thread sends: the bound context's token and the request's forwarded
   * tokens; {@code null} when no context is bound, as outside a request, where there is nothing to
   * send and nothing to merge an answer into.
   */
  @Nullable Outgoing outgoing() {
    ConsistencyContext context = ConsistencyContext.currentOrNull();
    if (context == null) {
      return null;
    }
    ForwardedTokens forwarded = ForwardedTokens.current();
    SortedMap<String, List<String>> sent =
        forwarded == null ? new TreeMap<>() : forwarded.snapshot();
    return new Outgoing(context, forwarded, sent, value(ownToken(context), sent));
  }

  /**
   * The header value of {@code own}, this cluster's signed token, and {@code others}, the other
   * clusters' tokens; {@code null} when there is nothing to send.
   */
  @Nullable String value(@Nullable String own, SortedMap<String, List<String>> others) {
    SortedMap<String, List<String>> entries = new TreeMap<>(others);
    if (own != null) {
      entries.put(cluster, List.of(own));
    }
    if (entries.isEmpty()) {
      return null;
    }
    StringBuilder value = new StringBuilder();
    for (Map.Entry<String, List<String>> entry : entries.entrySet()) {
      for (String token : entry.getValue()) {
        if (!value.isEmpty()) {
          value.append(", ");
        }
        value.append(entry.getKey()).append('=').append(token);
      }
    }
    int limit = codec.config().maxHeaderLength();
    if (value.length() > limit) {
      log.warn(
          "No "
              + name
              + " header sent: its "
              + value.length()
              + " characters exceed the limit of "
              + limit
              + " (clusters "
              + entries.keySet()
              + ")");
      return null;
    }
    return value.toString();
  }

  /** This cluster's signed token for {@code context}, or {@code null} when it gets none. */
  @Nullable String ownToken(@Nullable ConsistencyContext context) {
    if (context == null || context.gtids().isEmpty()) {
      return null;
    }
    if (context.isDirty()) {
      log.debug("No token for a dirty context: " + context.dirtyBecause());
      return null;
    }
    try {
      return codec.encode(codec.issue(cluster, context.gtids()));
    } catch (TokenOverflowException e) {
      log.warn("No token of cluster " + cluster + " sent: " + e.getMessage());
      return null;
    }
  }

  /**
   * Merges what a downstream service answered with: this cluster's tokens into {@code context}, the
   * others into {@code forwarded} in place of those {@code sent}. An answer that does not verify
   * marks the context dirty, since the downstream may have written what it cannot vouch for: the
   * rest of the unit of work reads from the source.
   */
  void merge(
      @Nullable String answer,
      ConsistencyContext context,
      @Nullable ForwardedTokens forwarded,
      Map<String, List<String>> sent) {
    if (answer == null || answer.isEmpty()) {
      return;
    }
    ConsistencyHeader header;
    try {
      header = codec.parseHeader(answer);
    } catch (TokenRejectedException e) {
      refused(context, e);
      return;
    }
    if (forwarded != null) {
      forwarded.received(header, sent);
    }
    try {
      codec.verify(header, cluster).ifPresent(token -> context.merge(token.gtids()));
    } catch (TokenRejectedException e) {
      refused(context, e);
    }
  }

  private void refused(ConsistencyContext context, TokenRejectedException e) {
    log.warn(
        "A downstream service answered with a "
            + name
            + " header that does not verify ("
            + e.reason()
            + ": "
            + e.getMessage()
            + "); reads of this unit of work go to the source");
    context.markDirty("downstream token rejected: " + e.reason());
  }

  /** One call's header and what to do with the answer. */
  final class Outgoing {
    private final ConsistencyContext context;
    private final @Nullable ForwardedTokens forwarded;
    private final Map<String, List<String>> sent;
    private final @Nullable String value;

    private Outgoing(
        ConsistencyContext context,
        @Nullable ForwardedTokens forwarded,
        Map<String, List<String>> sent,
        @Nullable String value) {
      this.context = context;
      this.forwarded = forwarded;
      this.sent = sent;
      this.value = value;
    }

    /** The header value to send, or {@code null} when there is nothing to send. */
    @Nullable String value() {
      return value;
    }

    /** Merges the header fields the call was answered with; none is fine. */
    void answered(@Nullable List<String> fields) {
      if (fields != null && !fields.isEmpty()) {
        merge(String.join(", ", fields), context, forwarded, sent);
      }
    }
  }

  /** What a request came with: this cluster's verified GTIDs and the header as it was sent. */
  record Incoming(GtidSet gtids, ConsistencyHeader header) {

    static final Incoming NONE = new Incoming(GtidSet.EMPTY, ConsistencyHeader.EMPTY);
  }
}
