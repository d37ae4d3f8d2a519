package io.tidemark.jdbc;

/**
 * Told, on the read's own thread, when a read begins to wait for a replica to execute its token and
 * how the wait ended, so that tracing can show the wait as a span of its own inside the read's.
 * Called on the read path: keep it quick, and never let it throw.
 */
@FunctionalInterface
public interface WaitListener {

  /** Listens to nothing. */
  WaitListener NONE = (node, coalesced) -> reached -> {};

  /**
   * A wait for the replica named {@code node} (its name in the topology) begins: on the read's own
   * connection, or, {@code coalesced}, as a follower of another read's wait on the same replica;
   * the result is told how it ended.
   */
  Ended waiting(String node, boolean coalesced);

  /** The end of one wait. */
  @FunctionalInterface
  interface Ended {

    /** The wait ended: {@code reached} when the replica executed the token in time. */
    void ended(boolean reached);
  }
}
