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
  GLOBAL
}
