package io.tidemark;

/** What a read must see, beyond what the client itself was shown: the same words everywhere. */
public enum ConsistencyLevel {
  /**
   * The client's own writes and what it was shown before (its token): a replica that has them
   * serves, and another client's newer commit may not be seen yet. The default.
   */
  SESSION,
  /**
   * Everything the source had committed when the read began, whoever wrote it, and the token: for a
   * read no token can describe (a webhook, a consumer of another system's messages, a client that
   * lost its token). The source is asked what it has executed, once for all such reads that arrive
   * while an ask is on its way, and the replica is waited for as for a token.
   */
  GLOBAL,
  /**
   * Everything the source had committed a given time before the read began (its maximum staleness),
   * and the token: {@code GLOBAL} with the source's answer to an earlier ask reused while it is
   * recent enough, so that at most one ask per that time reaches the source. The time is this
   * process's clock at the ask, never a timestamp read from a server.
   */
  BOUNDED,
  /**
   * What the replica has, without waiting for anything, the client's own writes included: for reads
   * where any recent state will do. The replica is still one within the topology's lag threshold.
   */
  EVENTUAL
}
