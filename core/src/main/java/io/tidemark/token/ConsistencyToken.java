package io.tidemark.token;

import io.tidemark.GtidSet;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable read requirement for one cluster: the GTIDs a read must see, and when it was issued.
 * {@link TokenCodec} signs it for the wire and verifies it on the way back in.
 *
 * <p>Tokens only grow: {@link #merge} is set union, and {@link #compact} adds GTIDs, never removes
 * them.
 */
public final class ConsistencyToken {

  /** Longest cluster name: it travels in the header as {@code name=token}. */
  public static final int MAX_CLUSTER_LENGTH = 64;

  private final String cluster;
  private final GtidSet gtids;
  private final GtidSet lost;
  private final Instant issuedAt;
  private final boolean requiresSource;

  private ConsistencyToken(
      String cluster, GtidSet gtids, GtidSet lost, Instant issuedAt, boolean requiresSource) {
    this.cluster = cluster;
    this.gtids = gtids;
    this.lost = lost;
    this.issuedAt = issuedAt;
    this.requiresSource = requiresSource;
  }

  /**
   * Creates a token; {@code issuedAt} is kept to the second, the precision of the wire form.
   *
   * @param cluster letters, digits, {@code _ . -}, starting with a letter or digit, at most {@value
   *     #MAX_CLUSTER_LENGTH} characters
   * @throws IllegalArgumentException when the cluster name is not one, or {@code issuedAt} is
   *     before the epoch
   */
  public static ConsistencyToken of(String cluster, GtidSet gtids, Instant issuedAt) {
    return new ConsistencyToken(
        checkCluster(cluster),
        Objects.requireNonNull(gtids),
        GtidSet.EMPTY,
        second(issuedAt),
        false);
  }

  /**
   * This token as a marker that sends every read under it to the source until it expires: what an
   * answer carries when its writes could not be captured and the source could not be asked for a
   * set that covers them. The answer to a request under a marker covers its writes afresh when it
   * can, and so replaces the marker.
   */
  public ConsistencyToken requiringSource() {
    return requiresSource ? this : new ConsistencyToken(cluster, gtids, lost, issuedAt, true);
  }

  /**
   * Whether reads under this token must go to the source: its GTIDs may miss writes it stands for.
   */
  public boolean requiresSource() {
    return requiresSource;
  }

  /** The cluster whose servers this token's GTIDs belong to. */
  public String cluster() {
    return cluster;
  }

  /** The GTIDs a read must see. */
  public GtidSet gtids() {
    return gtids;
  }

  /**
   * GTIDs of writes a failover lost, once the loss was reported to the client: no read needs them,
   * and a cached value that reflects any of them may be one the database no longer holds.
   */
  public GtidSet lost() {
    return lost;
  }

  /** This token also naming {@code lost} as lost writes, and no longer requiring them. */
  public ConsistencyToken withLost(GtidSet lost) {
    if (lost.isEmpty()) {
      return this;
    }
    return new ConsistencyToken(
        cluster, gtids.subtract(lost), this.lost.union(lost), issuedAt, requiresSource);
  }

  /** When the newest part of this token was issued, to the second. */
  public Instant issuedAt() {
    return issuedAt;
  }

  /**
   * The token that requires everything either token requires: the union of the GTID sets but the
   * writes either names lost, the later issue time, and the source when either requires it.
   * Commutative, associative and idempotent.
   *
   * @throws IllegalArgumentException when the tokens belong to different clusters
   */
  public ConsistencyToken merge(ConsistencyToken other) {
    if (!cluster.equals(other.cluster)) {
      throw new IllegalArgumentException(
          "cannot merge tokens of clusters " + cluster + " and " + other.cluster);
    }
    Instant later = issuedAt.isAfter(other.issuedAt) ? issuedAt : other.issuedAt;
    GtidSet bothLost = lost.union(other.lost);
    return new ConsistencyToken(
        cluster,
        gtids.union(other.gtids).subtract(bothLost),
        bothLost,
        later,
        requiresSource || other.requiresSource);
  }

  /**
   * This token with fewer intervals and never a weaker requirement: each gap between two intervals
   * of one source is filled where {@code knownExecutedOnSource} holds the whole gap.
   *
   * <p>The result contains this token's GTIDs, so every state that satisfies it satisfies this
   * token. Everything it adds was executed on the source, so the cluster can still meet it; that is
   * why the caller must pass what the source (or a server that is known to have executed nothing
   * the source lacks) has executed, never a replica with errant transactions. Gaps the known state
   * does not cover stay open: without it, no gap can be filled safely, because a GNO that was never
   * committed, or was lost in a failover, would make the token one no server ever satisfies. A
   * token still over the limits after compaction is refused by {@link TokenCodec#encode}, so the
   * caller can fall back to reading from the source rather than send a weakened token.
   */
  public ConsistencyToken compact(GtidSet knownExecutedOnSource) {
    GtidSet compacted = gtids.fillGaps(knownExecutedOnSource);
    return compacted.equals(gtids)
        ? this
        : new ConsistencyToken(cluster, compacted, lost, issuedAt, requiresSource);
  }

  /** Creates a decoded token; the codec has checked every part already. */
  static ConsistencyToken decoded(
      String cluster, GtidSet gtids, GtidSet lost, Instant issuedAt, boolean requiresSource) {
    return new ConsistencyToken(cluster, gtids, lost, issuedAt, requiresSource);
  }

  static String checkCluster(String cluster) {
    if (!isClusterName(cluster)) {
      throw new IllegalArgumentException(
          "cluster name must be 1 to "
              + MAX_CLUSTER_LENGTH
              + " letters, digits, '_', '.' or '-', starting with a letter or digit: "
              + cluster);
    }
    return cluster;
  }

  static boolean isClusterName(CharSequence name) {
    if (name.isEmpty() || name.length() > MAX_CLUSTER_LENGTH) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alphanumeric =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alphanumeric && (i == 0 || (c != '_' && c != '.' && c != '-'))) {
        return false;
      }
    }
    return true;
  }

  private static Instant second(Instant instant) {
    if (instant.getEpochSecond() < 0) {
      throw new IllegalArgumentException("issuedAt must not be before the epoch: " + instant);
    }
    return instant.truncatedTo(ChronoUnit.SECONDS);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ConsistencyToken other
        && cluster.equals(other.cluster)
        && gtids.equals(other.gtids)
        && lost.equals(other.lost)
        && issuedAt.equals(other.issuedAt)
        && requiresSource == other.requiresSource;
  }

  @Override
  public int hashCode() {
    return Objects.hash(cluster, gtids, lost, issuedAt, requiresSource);
  }

  @Override
  public String toString() {
    return "ConsistencyToken{cluster="
        + cluster
        + ", gtids="
        + gtids.toSingleLineString()
        + (lost.isEmpty() ? "" : ", lost=" + lost.toSingleLineString())
        + ", issuedAt="
        + issuedAt
        + (requiresSource ? ", requiresSource" : "")
        + "}";
  }
}
