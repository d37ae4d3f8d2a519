package io.tidemark.token;

import io.tidemark.ConsistencyContext;
import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The consistency header as one application reads and writes it, wherever it travels (an HTTP
 * request or answer, a call to another service, a message): its own cluster's tokens verified and
 * merged into the {@link ConsistencyContext}, every other cluster's tokens forwarded untouched in
 * the context.
 *
 * <p>A context with writes always gets a token that covers them. A dirty context (a write whose
 * GTID escaped capture, a commit whose outcome is unknown) is covered by the source's {@code
 * gtid_executed} read at that moment, which contains every commit before it; a token over the
 * codec's limits is compacted with the same set. Only when the source cannot be asked does the
 * token become a marker that {@linkplain ConsistencyToken#requiresSource() requires the source}:
 * the client's reads under it go to the source, and the next answer covers its writes afresh.
 */
public final class TokenExchange {

  /** The header the tokens travel in unless an application names another. */
  public static final String DEFAULT_HEADER = "Consistency-Token";

  private static final System.Logger LOG = System.getLogger(TokenExchange.class.getName());

  /**
   * Why a well-formed token of this cluster may fail though this cluster issued it: a key this
   * process does not hold, another secret, the clocks.
   */
  private static final Set<TokenRejectedException.Check> UNVERIFIABLE =
      EnumSet.of(
          TokenRejectedException.Check.UNKNOWN_KEY_ID,
          TokenRejectedException.Check.BAD_SIGNATURE,
          TokenRejectedException.Check.EXPIRED,
          TokenRejectedException.Check.FROM_THE_FUTURE);

  private final TokenCodec codec;
  private final String cluster;
  private final String headerName;
  private final TokenCover cover;

  /**
   * An exchange for tokens of {@code cluster} in a header called {@code headerName} (for log
   * lines); a dirty context is covered with what {@code source} reads, within {@code coverTimeout}
   * and what is left of the context's deadline.
   */
  public TokenExchange(
      TokenCodec codec,
      String cluster,
      String headerName,
      Duration coverTimeout,
      SourceExecuted source) {
    this.codec = Objects.requireNonNull(codec, "codec");
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.headerName = Objects.requireNonNull(headerName, "headerName");
    if (coverTimeout.isNegative() || coverTimeout.isZero()) {
      throw new IllegalArgumentException("coverTimeout must be positive: " + coverTimeout);
    }
    this.cover =
        new TokenCover(codec, cluster, headerName, coverTimeout, Objects.requireNonNull(source));
  }

  /** Reads the source's {@code gtid_executed} now, within {@code timeout}. */
  @FunctionalInterface
  public interface SourceExecuted {
    GtidSet read(Duration timeout) throws SQLException;
  }

  /** Name of the header, as log lines call it. */
  public String headerName() {
    return headerName;
  }

  /** Cluster whose tokens this application verifies and issues. */
  public String cluster() {
    return cluster;
  }

  /**
   * Reads a header value (several header fields joined with commas, or none).
   *
   * @throws TokenRejectedException when the value is oversized or malformed, or a token of this
   *     cluster does not verify
   */
  public Incoming read(@Nullable String value) {
    ConsistencyHeader header = codec.parseHeader(value);
    return new Incoming(codec.verify(header, cluster).orElse(null), others(header), null);
  }

  /**
   * Reads a header value as {@link #read} does, but goes on with a value that is not a sound token
   * of this cluster: one signed with a key this process does not hold (a restart with a random
   * secret, a retired key), altered, or too old or too new for the clocks, and, unless {@code
   * rejectMalformed}, one that is no token header at all. Its {@link Incoming#applyTo} makes the
   * context dirty, as for a message: the sender's writes cannot be known, so reads go to the source
   * and the answer's token covers it. The other clusters' tokens are forwarded when they can be
   * read.
   *
   * @throws TokenRejectedException when {@code rejectMalformed} and the value is oversized,
   *     malformed, of an unknown version or cluster, or over the limits
   */
  public Incoming readLeniently(@Nullable String value, boolean rejectMalformed) {
    ConsistencyHeader header;
    try {
      header = codec.parseHeader(value);
    } catch (TokenRejectedException e) {
      return rejected(e, rejectMalformed, new TreeMap<>());
    }
    try {
      return new Incoming(codec.verify(header, cluster).orElse(null), others(header), null);
    } catch (TokenRejectedException e) {
      return rejected(e, rejectMalformed, others(header));
    }
  }

  private Incoming rejected(
      TokenRejectedException e, boolean rejectMalformed, SortedMap<String, List<String>> others) {
    if (rejectMalformed && !UNVERIFIABLE.contains(e.reason())) {
      throw e;
    }
    ignored(e);
    return new Incoming(null, others, e.reason());
  }

  // At debug: any client can send a bad token, so a log line per request would be theirs to fill.
  private void ignored(TokenRejectedException e) {
    LOG.log(
        Level.DEBUG,
        () -> "Ignored a " + headerName + " header (" + e.reason() + "): " + e.getMessage());
  }

  private SortedMap<String, List<String>> others(ConsistencyHeader header) {
    SortedMap<String, List<String>> others = new TreeMap<>();
    for (String other : header.clusters()) {
      if (!other.equals(cluster)) {
        others.put(other, List.copyOf(header.tokens(other)));
      }
    }
    return others;
  }

  /**
   * A new context, not bound to any thread, for a unit of work that arrived with {@code value} (a
   * message's header, say): it requires this cluster's verified token and forwards the other
   * clusters' tokens. A value that does not verify (expired after a long queue, signed elsewhere)
   * gives a dirty context, whose reads go to the source, since the sender's writes cannot be known.
   */
  public ConsistencyContext receive(@Nullable String value, @Nullable Deadline deadline) {
    ConsistencyContext context = ConsistencyContext.create(GtidSet.EMPTY, deadline);
    receiveInto(context, value);
    return context;
  }

  /**
   * Merges what a unit of work's {@code value} carries into {@code context}, as {@link #receive}
   * does: for a unit of work that came with several (a batch of messages).
   *
   * @return why the value was rejected, the context then being dirty; {@code null} when it was not
   */
  public TokenRejectedException.@Nullable Check receiveInto(
      ConsistencyContext context, @Nullable String value) {
    Incoming incoming = readLeniently(value, false);
    incoming.applyTo(context);
    return incoming.rejected();
  }

  /**
   * The header value that hands {@code context} on (to a message, a call): its token, covering
   * every write, and its forwarded tokens; {@code null} when there is nothing to send.
   */
  public @Nullable String headerFor(ConsistencyContext context) {
    return headerValue(ownToken(context), context.forwardedTokens());
  }

  /**
   * What a call from this thread sends: the bound context's token and forwarded tokens; {@code
   * null} when no context is bound, as outside a unit of work, where there is nothing to send and
   * nothing to merge an answer into.
   */
  public @Nullable Outgoing outgoing() {
    return outgoing(ConsistencyContext.currentOrNull());
  }

  /**
   * What a call made in {@code context} sends, as {@link #outgoing()} does for the bound one: for a
   * call whose context is not on its thread, as in a Reactor chain; {@code null} without one.
   */
  public @Nullable Outgoing outgoing(@Nullable ConsistencyContext context) {
    if (context == null) {
      return null;
    }
    SortedMap<String, List<String>> sent = context.forwardedTokens();
    return new Outgoing(context, sent, headerValue(ownToken(context), sent));
  }

  /**
   * The header value of {@code own}, this cluster's signed token, and {@code others}, the other
   * clusters' tokens; {@code null} when there is nothing to send. Over the header's length limit,
   * other clusters' tokens are left out, the longest first, and never this cluster's own.
   */
  public @Nullable String headerValue(@Nullable String own, Map<String, List<String>> others) {
    SortedMap<String, List<String>> entries = new TreeMap<>(others);
    entries.remove(cluster);
    if (own != null) {
      entries.put(cluster, List.of(own));
    }
    int limit = codec.config().maxHeaderLength();
    List<String> dropped = new ArrayList<>();
    String value = ConsistencyHeader.join(entries);
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
      value = ConsistencyHeader.join(entries);
    }
    if (!dropped.isEmpty()) {
      LOG.log(
          Level.WARNING,
          "The "
              + headerName
              + " header would exceed its limit of "
              + limit
              + " characters: the tokens of clusters "
              + dropped
              + " are not forwarded");
    }
    return value.isEmpty() ? null : value;
  }

  /**
   * This cluster's signed token for {@code context}: one that covers every write of the context,
   * or, when the source cannot be asked for one, a marker that requires the source; {@code null}
   * only for a clean context without GTIDs and without writes reported lost (a token naming only
   * those replaces the client's, which would require them still). The source is asked within the
   * cover timeout and what is left of the context's deadline, if any: an answer is not held past
   * it.
   */
  public @Nullable String ownToken(@Nullable ConsistencyContext context) {
    return cover.token(context);
  }

  /**
   * This cluster's signed marker for {@code context} that {@linkplain
   * ConsistencyToken#requiresSource() requires the source}: for what no covering set can be known
   * of yet, such as a message sent before the write it follows has committed.
   */
  public String requiringSource(ConsistencyContext context) {
    return cover.requiringSource(context);
  }

  /**
   * Merges what a downstream service answered with: this cluster's tokens into {@code context}, the
   * others into its forwarded tokens in place of those {@code sent}. An answer that does not verify
   * marks the context dirty, since the downstream may have written what it cannot vouch for: the
   * rest of the unit of work reads from the source.
   */
  public void merge(
      @Nullable String answer, ConsistencyContext context, Map<String, List<String>> sent) {
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
    context.forward(others(header), sent);
    try {
      codec.verify(header, cluster).ifPresent(token -> Incoming.apply(token, context));
    } catch (TokenRejectedException e) {
      refused(context, e);
    }
  }

  private void refused(ConsistencyContext context, TokenRejectedException e) {
    LOG.log(
        Level.WARNING,
        "A downstream service answered with a "
            + headerName
            + " header that does not verify ("
            + e.reason()
            + ": "
            + e.getMessage()
            + "); reads of this unit of work go to the source");
    context.markDirty("downstream token rejected: " + e.reason());
  }

  /** One call's header and what to do with the answer. */
  public final class Outgoing {
    private final ConsistencyContext context;
    private final Map<String, List<String>> sent;
    private final @Nullable String value;

    private Outgoing(
        ConsistencyContext context, Map<String, List<String>> sent, @Nullable String value) {
      this.context = context;
      this.sent = sent;
      this.value = value;
    }

    /** The header value to send, or {@code null} when there is nothing to send. */
    public @Nullable String value() {
      return value;
    }

    /** Merges the header fields the call was answered with; none is fine. */
    public void answered(@Nullable List<String> fields) {
      if (fields != null && !fields.isEmpty()) {
        merge(String.join(", ", fields), context, sent);
      }
    }
  }

  /**
   * What a unit of work came with: this cluster's verified token, if any, and the other clusters'
   * tokens.
   *
   * @param own this cluster's verified token, or {@code null}
   * @param others the other clusters' encoded tokens, by cluster
   */
  public record Incoming(
      @Nullable ConsistencyToken own,
      SortedMap<String, List<String>> others,
      TokenRejectedException.@Nullable Check rejected) {

    /** Nothing: no header. */
    public static final Incoming NONE = new Incoming(null, new TreeMap<>(), null);

    /** The GTIDs of this cluster's token; empty without one. */
    public GtidSet gtids() {
      return own == null ? GtidSet.EMPTY : own.gtids();
    }

    /**
     * Merges this cluster's token into {@code context}, where a marker sends its reads to the
     * source, and forwards the other clusters' tokens in it; a token that was {@code rejected}
     * makes it dirty.
     */
    public void applyTo(ConsistencyContext context) {
      if (own != null) {
        apply(own, context);
      }
      if (rejected != null) {
        context.markDirty(
            "a token it came with did not verify (" + rejected + "): its writes cannot be known");
      }
      context.forward(others, Map.of());
    }

    static void apply(ConsistencyToken token, ConsistencyContext context) {
      context.merge(token.gtids());
      context.forgetLost(token.lost());
      if (token.requiresSource()) {
        context.markDirty(
            "its token requires the source: an earlier answer could not cover its writes");
      }
    }
  }
}
