package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.Deadline;
import io.tidemark.StandIns;
import io.tidemark.Ticker;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class AskConnectionTests {

  private static final long LINGER = 200;

  @Test
  void asksWithinTheLingerShareOneCheckOutAndTheConnectionGoesBackOnceTheyStop()
      throws SQLException {
    Pool pool = new Pool();
    AskConnection asks = new AskConnection(LINGER);

    for (int i = 0; i < 5; i++) {
      asks.keep(asks.take(pool, deadline()));
    }
    assertThat(pool.taken).hasSize(1);
    assertThat(pool.closed()).isZero();

    awaitClosed(pool, 1);
    Connection next = asks.take(pool, deadline());
    assertThat(pool.taken).hasSize(2);
    assertThat(next).isSameAs(pool.taken.get(1));
  }

  @Test
  void aSteadyFlowOfAsksTakesANewConnectionOnceTheKeptOneWasHeldForTheLinger() throws SQLException {
    Pool pool = new Pool();
    AskConnection asks = new AskConnection(LINGER);

    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER * 3);
    while (System.nanoTime() < end) {
      asks.keep(asks.take(pool, deadline()));
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }

    assertThat(pool.taken).hasSizeBetween(3, 5);
    assertThat(pool.closed()).isEqualTo(pool.taken.size() - 1);
  }

  @Test
  void aConnectionThatFailedIsClosedAndTheNextAskTakesANewOne() throws SQLException {
    Pool pool = new Pool();
    AskConnection asks = new AskConnection(LINGER);

    asks.drop(asks.take(pool, deadline()));
    assertThat(pool.closed()).isEqualTo(1);
    asks.keep(asks.take(pool, deadline()));

    assertThat(pool.taken).hasSize(2);
  }

  @Test
  void theConnectionOfAFormerSourceIsClosedWhenTheSourceChanges() throws SQLException {
    Pool former = new Pool();
    Pool promoted = new Pool();
    AskConnection asks = new AskConnection(LINGER);

    asks.keep(asks.take(former, deadline()));
    asks.keep(asks.take(promoted, deadline()));

    assertThat(former.closed()).isEqualTo(1);
    assertThat(promoted.taken).hasSize(1);
    assertThat(promoted.closed()).isZero();
  }

  private static Deadline deadline() {
    return Deadline.after(Duration.ofSeconds(1), Ticker.systemTicker());
  }

  private static void awaitClosed(Pool pool, int count) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER * 20);
    while (pool.closed() < count) {
      assertThat(System.nanoTime()).as("returned to the pool in time").isLessThan(end);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  /** A pool whose connections record that they were closed (given back). */
  private static final class Pool implements DataSource {
    final List<Connection> taken = new ArrayList<>();
    final List<AtomicBoolean> closes = new ArrayList<>();

    @Override
    public synchronized Connection getConnection() {
      AtomicBoolean closed = new AtomicBoolean();
      Connection connection =
          StandIns.of(
              Connection.class,
              (proxy, method, args) -> {
                if (method.getName().equals("close")) {
                  closed.set(true);
                }
                return null;
              });
      taken.add(connection);
      closes.add(closed);
      return connection;
    }

    synchronized int closed() {
      return (int) closes.stream().filter(AtomicBoolean::get).count();
    }

    @Override
    public Connection getConnection(String user, String password) {
      throw new UnsupportedOperationException();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }
}
