package io.tidemark.jdbc;

import io.tidemark.FakeTicker;
import io.tidemark.Ticker;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * A source and a replica played by core's test fakes ({@link FakeMysql} behind a {@link
 * FakeConnection} each), on one {@link FakeTicker}, for benchmarks of the reader without servers.
 * The fakes answer the reader's own statements themselves, and core's tests keep them in step with
 * what the reader sends; only the statements of the benchmark's query are scripted, with {@link
 * #answering}. Neither fake keeps a log: it would grow with every read.
 */
// Public, in core's test jar, for the benchmarks: the fakes it plays stay package-private.
public final class FakeCluster {

  private final FakeTicker ticker = new FakeTicker();
  private final FakeMysql sourceServer;
  private final FakeMysql replicaServer;
  private final FakeConnection source;
  private final FakeConnection replica;

  /** A source that executed {@code executed}, and a replica that has executed it too. */
  public FakeCluster(String sourceUuid, String replicaUuid, String executed) {
    sourceServer = new FakeMysql(sourceUuid, ticker).executed(executed);
    replicaServer = new FakeMysql(replicaUuid, ticker).executed(executed);
    source = new FakeConnection(sourceServer).unrecorded();
    replica = new FakeConnection(replicaServer).unrecorded();
  }

  /** Makes both servers answer {@code sql} with a one-row result holding {@code value}. */
  public FakeCluster answering(String sql, Object value) {
    sourceServer.answering(sql, value);
    replicaServer.answering(sql, value);
    return this;
  }

  /**
   * Makes the replica execute {@code gtids} a nanosecond later on the ticker: a connection's first
   * look at the replica does not see them yet, and a wait for them, the only thing that moves the
   * ticker, returns at once with them executed. The source is not told: the reader asks it only for
   * its UUIDs, once.
   */
  public void replicaExecutesWhenWaitedFor(String gtids) {
    replicaServer.executesAfter(Duration.ofNanos(1), gtids);
  }

  /** The ticker of both servers, to give the reader so that its deadlines follow the fakes. */
  public Ticker ticker() {
    return ticker;
  }

  /**
   * The replica's pool: one connection, handed out again on every check-out, on the reader's own
   * thread as from the pools the starter builds ({@code ReplicaPools}).
   */
  public DataSource replicaPool() {
    return replica.boundedPool();
  }

  public DataSource sourcePool() {
    return source.pool();
  }
}
