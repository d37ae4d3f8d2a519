package io.tidemark;

import java.util.Locale;

/** The role of a node: where a read ran, or what a probe found. */
public enum NodeRole {
  /** The writable source. */
  SOURCE,
  /** A node with a replication channel. */
  REPLICA,
  /** No node: a read that failed before any answered. */
  NONE,
  /** A probe could not tell: the node did not answer. */
  UNKNOWN;

  /** The role in lower case, as health, the endpoint and problem answers name it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
