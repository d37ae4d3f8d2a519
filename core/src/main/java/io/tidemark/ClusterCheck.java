package io.tidemark;

/**
 * The last verification step, for checks that need to know the cluster: whether every source UUID
 * of a token is one of the cluster's, and whether the source has executed the token. It runs only
 * on tokens whose signature, cluster, age and size have been verified.
 */
@FunctionalInterface
public interface ClusterCheck {

  /** A check that accepts every token, for when nothing is known about the cluster. */
  static ClusterCheck none() {
    return token -> {};
  }

  /**
   * Returns normally to accept {@code token}.
   *
   * @throws TokenRejectedException with reason {@link
   *     TokenRejectedException.Reason#UNKNOWN_SOURCE_UUID} or {@link
   *     TokenRejectedException.Reason#AHEAD_OF_SOURCE} to reject it
   */
  void check(ConsistencyToken token);
}
