package io.tidemark.spring.autoconfigure;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenOverflowException;
import io.tidemark.token.TokenRejectedException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The consistency header as this application reads and writes it, on requests it serves and on
 * calls it makes: its own cluster's tokens verified and merged into the {@link ConsistencyContext},
 * every other cluster's tokens forwarded untouched.
 *
 * <p>A context with writes always gets a token that covers them. A dirty context (a write whose
 * GTID escaped capture, a commit whose outcome is unknown) is covered by the source's {@code
 * gtid_executed} read at that moment, which contains every commit before it; a token over the
 * codec's limits is compacted with the same set. Only when the source cannot be asked does the
 * token become a marker that {@linkplain ConsistencyToken#requiresSource() requires the source}:
 * the client's reads under it go to the source, and the next answer covers its writes afresh.
 */
final class TokenHeaders {

  private static final Log log = LogFactory.getLog(TokenHeaders.class);

  private final TokenCodec codec;
  private final String cluster;
  private final String name;
  private final Duration coverTimeout;
  private final SourceExecuted source;

  TokenHeaders(
      TokenCodec codec, String cluster, String name, Duration coverTimeout, SourceExecuted source) {
    this.codec = codec;
    this.cluster = cluster;
    this.name = name;
    this.coverTimeout = coverTimeout;
    this.source = source;
  }

  /**
   * The header as {@code tidemark.cluster} and {@code tidemark.web.header} say, covering with the
   * source as the application's {@link ConsistentReader} reads it, within {@code
   * tidemark.token.cover-timeout}; without a reader (an application that only forwards tokens),
   * nothing can be covered and a dirty context gets a marker.
   */
  static TokenHeaders of(
      TokenCodec codec, TidemarkProperties properties, ObjectProvider<ConsistentReader> readers) {
    return new TokenHeaders(
        codec,
        properties.getCluster(),
        properties.getWeb().getHeader(),
        properties.getToken().getCoverTimeout(),
        timeout -> {
          ConsistentReader reader = readers.getIfAvailable();
          if (reader == null) {
            throw new SQLException("this application has no Tidemark reader to ask the source");
          }
          return reader.sourceExecuted(timeout);
        });
  }

  /** Reads the source's {@code gtid_executed} now, within {@code timeout}. */
  @FunctionalInterface
  interface SourceExecuted {
    GtidSet read(Duration timeout) throws SQLException;
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
    return new Incoming(codec.verify(header, cluster).orElse(null), header);
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
      return new Incoming(codec.verify(header, cluster).orElse(null), header);
    } catch (TokenRejectedException e) {
      ignored(e);
      return new Incoming(null, header);
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
    return new Outgoing(
        context, forwarded, sent, value(ownToken(context, RequestBudget.current()), sent));
  }

  /**
   * The header value of {@code own}, this cluster's signed token, and {@code others}, the other
   * clusters' tokens; {@code null} when there is nothing to send. Over the header's length limit,
   * other clusters' tokens are left out, the longest first, and never this cluster's own.
   */
  @Nullable String value(@Nullable String own, SortedMap<String, List<String>> others) {
    SortedMap<String, List<String>> entries = new TreeMap<>(others);
    if (own != null) {
      entries.put(cluster, List.of(own));
    }
    int limit = codec.config().maxHeaderLength();
    List<String> dropped = new ArrayList<>();
    String value = join(entries);
    while (value.length() > limit && entries.size() > (own != null ? 1 : 0)) {
      String longest = null;
      int longestLength = -1;
      for (Map.Entry<String, List<String>> entry : entries.entrySet()) {
        int length = String.join(", ", entry.getValue()).length();
        if (!entry.getKey().equals(cluster) && length > longestLength) {
          longest = entry.getKey();
          longestLength = length;
        }
      }
      entries.remove(longest);
      dropped.add(longest);
      value = join(entries);
    }
    if (!dropped.isEmpty()) {
      log.warn(
          "The "
              + name
              + " header would exceed its limit of "
              + limit
              + " characters: the tokens of clusters "
              + dropped
              + " are not forwarded");
    }
    return value.isEmpty() ? null : value;
  }

  private static String join(SortedMap<String, List<String>> entries) {
    StringBuilder value = new StringBuilder();
    for (Map.Entry<String, List<String>> entry : entries.entrySet()) {
      for (String token : entry.getValue()) {
        if (!value.isEmpty()) {
          value.append(", ");
        }
        value.append(entry.getKey()).append('=').append(token);
      }
    }
    return value.toString();
  }

  /**
   * This cluster's signed token for {@code context}: one that covers every write of the context,
   * or, when the source cannot be asked for one, a marker that requires the source; {@code null}
   * only for a clean context without GTIDs. The source is asked within {@code
   * tidemark.token.cover-timeout} and what is left of {@code deadline}, the request's, if any: an
   * answer is not held past it.
   */
  @Nullable String ownToken(@Nullable ConsistencyContext context, @Nullable Deadline deadline) {
    if (context == null || (context.gtids().isEmpty() && !context.isDirty())) {
      return null;
    }
    GtidSet gtids = context.gtids();
    if (!context.isDirty()) {
      try {
        return codec.encode(codec.issue(cluster, gtids));
      } catch (TokenOverflowException e) {
        log.debug("Compacting a token over the limits: " + e.getMessage());
      }
    }
    String problem;
    try {
      Duration timeout =
          deadline == null || deadline.remaining().compareTo(coverTimeout) > 0
              ? coverTimeout
              : deadline.remaining();
      if (timeout.isNegative() || timeout.isZero()) {
        throw new SQLException("the request's deadline has passed");
      }
      GtidSet executed = source.read(timeout);
      // Read after every commit of the context, so it holds those that escaped capture too.
      GtidSet covered = context.isDirty() ? gtids.union(executed) : gtids;
      return codec.encode(codec.issue(cluster, covered).compact(executed));
    } catch (SQLException | RuntimeException e) {
      problem = e.getMessage();
    }
    ConsistencyToken marker = codec.issue(cluster, gtids).requiringSource();
    log.warn(
        "The "
            + name
            + " token of cluster "
            + cluster
            + " requires the source: "
            + (context.isDirty() ? context.dirtyBecause() : "it is over the limits")
            + ", and the source could not be asked for a covering set ("
            + problem
            + ")");
    try {
      return codec.encode(marker);
    } catch (TokenOverflowException e) {
      return codec.encode(codec.issue(cluster, GtidSet.EMPTY).requiringSource());
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
      codec.verify(header, cluster).ifPresent(token -> Incoming.apply(token, context));
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

  /** What a request came with: this cluster's verified token, if any, and the header as sent. */
  record Incoming(@Nullable ConsistencyToken own, ConsistencyHeader header) {

    static final Incoming NONE = new Incoming(null, ConsistencyHeader.EMPTY);

    /** The GTIDs of this cluster's token; empty without one. */
    GtidSet gtids() {
      return own == null ? GtidSet.EMPTY : own.gtids();
    }

    /** Merges this cluster's token into {@code context}; a marker sends its reads to the source. */
    void applyTo(ConsistencyContext context) {
      if (own != null) {
        apply(own, context);
      }
    }

    static void apply(ConsistencyToken token, ConsistencyContext context) {
      context.merge(token.gtids());
      if (token.requiresSource()) {
        context.markDirty(
            "its token requires the source: an earlier answer could not cover its writes");
      }
    }
  }
}
