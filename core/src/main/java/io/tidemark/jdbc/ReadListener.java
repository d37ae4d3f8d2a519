package io.tidemark.jdbc;

import io.tidemark.ExecutionRecord;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Told of every read a {@link ConsistentReader} runs, on the read's own thread: it starts, it waits
 * for replicas, it ends. Metrics, traces and the execution history listen so. Called on the read
 * path: keep it quick, and never let it throw.
 */
@FunctionalInterface
public interface ReadListener {

  /** Listens to nothing. */
  ReadListener NONE = name -> Read.NONE;

  /**
   * A read named {@code name} ({@link ReadOptions#withName}) starts on this thread; what this
   * returns is told, on the same thread, of the read's waits and of its end.
   */
  Read started(String name);

  /** A listener told only of each read's record, served or refused. */
  static ReadListener ofRecords(Consumer<ExecutionRecord> records) {
    Read read =
        (record, failure) -> {
          if (record != null) {
            records.accept(record);
          }
        };
    return name -> read;
  }

  /** {@code listeners} told in turn, in their order. */
  static ReadListener all(List<ReadListener> listeners) {
    List<ReadListener> each = List.copyOf(listeners);
    if (each.isEmpty()) {
      return NONE;
    }
    if (each.size() == 1) {
      return each.get(0);
    }
    return name -> {
      List<Read> reads = each.stream().map(listener -> listener.started(name)).toList();
      return new Read() {
        @Override
        public Wait waiting(String node, boolean coalesced) {
          List<Wait> waits = reads.stream().map(read -> read.waiting(node, coalesced)).toList();
          return reached -> waits.forEach(wait -> wait.ended(reached));
        }

        @Override
        public void ended(@Nullable ExecutionRecord record, @Nullable Throwable failure) {
          reads.forEach(read -> read.ended(record, failure));
        }
      };
    };
  }

  /** One read, as its listener follows it. */
  @FunctionalInterface
  interface Read {

    /** Follows nothing. */
    Read NONE = (record, failure) -> {};

    /**
     * A wait for the replica named {@code node} (its name in the topology) begins: on the read's
     * own connection, or, {@code coalesced}, as a follower of another read's wait on the same
     * replica; what this returns is told how it ended. By default nothing.
     */
    default Wait waiting(String node, boolean coalesced) {
      return reached -> {};
    }

    /**
     * The read ended: {@code record} says where it ran and why, served or refused ({@code null}
     * when the read's own query failed before any was made); {@code failure} is what it threw, or
     * {@code null}.
     */
    void ended(@Nullable ExecutionRecord record, @Nullable Throwable failure);
  }

  /** The end of one wait. */
  @FunctionalInterface
  interface Wait {

    /** The wait ended: {@code reached} when the replica executed the token in time. */
    void ended(boolean reached);
  }
}
