package io.tidemark.topology;

import io.tidemark.Reason;
import io.tidemark.dialect.Dialect;
import io.tidemark.internal.Failures;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} for writes that connects to whichever node is the writable source when the
 * connection is asked for, and refuses (with the reason) when none or several are; a wait for a
 * connection of a node ends when the view sees the node is no longer the source. It is always
 * wrapped by a {@link CapturingDataSource} that passes its connections' failures to {@link
 * #failed}: a statement refused because the node turned read-only is refused as {@code
 * NO_WRITABLE_SOURCE} (it did not write, and a retry once the view sees the new source may), and
 * that or a failed connection makes the view check the roles at once.
 */
final class WriterDataSource implements DataSource {

  private final TopologyView view;
  private final NodeSelector selector;
  private final Map<String, DataSource> pools;
  private final Set<Wait> waits = ConcurrentHashMap.newKeySet();

  /**
   * @param pools each configured node's pool, by node name
   */
  WriterDataSource(TopologyView view, NodeSelector selector, Map<String, DataSource> pools) {
    this.view = Objects.requireNonNull(view, "view");
    this.selector = Objects.requireNonNull(selector, "selector");
    this.pools = Map.copyOf(pools);
    view.afterEveryProbe(this::endWaitsOnFormerSource);
  }

  /**
   * @throws NoWritableSourceException when no single node accepts writes ({@code
   *     NO_WRITABLE_SOURCE}, {@code SPLIT_BRAIN}), also when the node this call waited on for a
   *     connection stopped being the source meanwhile
   */
  @Override
  public Connection getConnection() throws SQLException {
    // A node may stop being the source once each time round; more turns than nodes would be a view
    // that flaps, and the pool's own error says more then.
    for (int turn = 0; ; turn++) {
      NodeSelector.Choice writer = selector.writer();
      NodeState node = writer.node();
      if (node == null) {
        throw new NoWritableSourceException(writer.reason(), writer.detail());
      }
      DataSource pool = pools.get(node.name());
      if (pool == null) {
        throw new SQLTransientConnectionException("no pool for node " + node.name(), "08001");
      }
      Wait wait = new Wait(Thread.currentThread(), node.name());
      waits.add(wait);
      try {
        return pool.getConnection();
      } catch (SQLException e) {
        if (!wait.end() || turn >= pools.size()) {
          view.refreshNow();
          throw e;
        }
      } finally {
        waits.remove(wait);
        wait.end();
      }
    }
  }

  /**
   * Ends the waits for a connection of a node that is no longer the source: its pool would keep
   * them waiting for its whole connection timeout, creating connections to a server that is gone.
   */
  private void endWaitsOnFormerSource() {
    if (waits.isEmpty()) {
      return;
    }
    NodeState writer = selector.writer().node();
    for (Wait wait : waits) {
      if (writer == null || !writer.name().equals(wait.node)) {
        wait.interrupt();
      }
    }
  }

  /**
   * A thread waiting for a connection of {@code node}'s pool. It is interrupted only while it
   * waits, and the interrupt is taken back when the wait ends: the caller never sees it.
   */
  private static final class Wait {
    private final Thread thread;
    private final String node;
    private boolean ended;
    private boolean interrupted;

    Wait(Thread thread, String node) {
      this.thread = thread;
      this.node = node;
    }

    synchronized void interrupt() {
      if (!ended && !interrupted) {
        interrupted = true;
        thread.interrupt();
      }
    }

    /** Whether this wait was interrupted; called by the waiting thread. */
    synchronized boolean end() {
      if (!ended) {
        ended = true;
        if (interrupted) {
          Thread.interrupted();
        }
      }
      return interrupted;
    }
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("credentials are set per node pool");
  }

  /**
   * What a failure of a connection of this data source, or of its statement, becomes: the view
   * checks the roles at once when the node refused a write as read-only or the connection failed,
   * and a write refused as read-only is refused as {@code NO_WRITABLE_SOURCE}, known not to have
   * written.
   */
  SQLException failed(Connection connection, SQLException e) {
    boolean refused = refusedAsReadOnly(e, connection);
    if (refused || Failures.isConnectionFailure(e)) {
      view.refreshNow();
    }
    return refused
        ? new NoWritableSourceException(
            Reason.NO_WRITABLE_SOURCE,
            "the source refused the write as read-only, as during a failover: " + e.getMessage(),
            e)
        : e;
  }

  /**
   * Whether the server refused a write because it is read-only, not because the application made
   * its own transaction read-only, as the connection's database tells them apart.
   */
  private static boolean refusedAsReadOnly(SQLException e, Connection connection) {
    try {
      return Dialect.of(connection).refusedAsReadOnly(e, connection);
    } catch (SQLException notKnown) {
      return false;
    }
  }

  @Override
  public @Nullable PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    throw new SQLFeatureNotSupportedException("log writers are set per node pool");
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    throw new SQLFeatureNotSupportedException("login timeouts are set per node pool");
  }

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging parent");
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new SQLException("not a wrapper for " + type.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }
}
