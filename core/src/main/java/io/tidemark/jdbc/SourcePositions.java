package io.tidemark.jdbc;

import io.tidemark.Deadline;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import io.tidemark.dialect.Dialect;
import io.tidemark.internal.SocketTimeout;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * What the source has executed, asked for the reads of the {@link
 * io.tidemark.ConsistencyLevel#GLOBAL GLOBAL} and {@link io.tidemark.ConsistencyLevel#BOUNDED
 * BOUNDED} levels: one ask on its way at a time, its answer shared by every read that arrived
 * before it was sent. A {@code GLOBAL} read that arrives while one is on its way cannot use that
 * answer (the source may have read its set before the read began), so it joins the next ask, sent
 * as soon as the one on its way is answered: under any load one ask is in flight, and a read waits
 * for at most two. A {@code BOUNDED} read takes any answer to an ask sent no earlier than its
 * staleness allows, the last one's included.
 */
final class SourcePositions {

  private final NodeRoutes routes;
  private final Ticker ticker;
  private final AtomicLong asked = new AtomicLong();

  // One thread sends the asks that gathered behind another, one after another; it ends when there
  // is nothing to ask.
  private final ThreadPoolExecutor sender =
      new ThreadPoolExecutor(
          0,
          1,
          10,
          TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(),
          task -> {
            Thread thread = new Thread(task, "tidemark-source-positions");
            thread.setDaemon(true);
            return thread;
          });

  private final AskConnection asks = new AskConnection();

  private @Nullable Ask onItsWay;
  private @Nullable Ask next;
  private @Nullable Ask last;

  SourcePositions(NodeRoutes routes, Ticker ticker) {
    this.routes = routes;
    this.ticker = ticker;
  }

  /** One ask: answered once for every read that joined it; bounded by its latest reader's end. */
  private static final class Ask {
    final CompletableFuture<GtidSet> answer = new CompletableFuture<>();
    volatile Deadline end;
    // The ticker reading just before it was sent; meaningful once sent is true.
    volatile long sentAt;
    volatile boolean sent;

    Ask(Deadline end) {
      this.end = end;
    }

    boolean sentSince(long since) {
      return sent && sentAt - since > 0;
    }
  }

  /**
   * What the source had executed at some moment after this call began.
   *
   * @throws SQLException when the source did not say by {@code deadline}, or failed
   */
  GtidSet executedSinceNow(Deadline deadline) throws SQLException {
    return executedSince(ticker.read(), deadline);
  }

  /**
   * What the source had executed at some moment after the ticker read {@code since}: an answer to
   * an ask sent later serves, none sent at that reading.
   *
   * @throws SQLException when the source did not say by {@code deadline}, or failed
   */
  GtidSet executedSince(long since, Deadline deadline) throws SQLException {
    Ask ask;
    boolean send = false;
    synchronized (this) {
      if (last != null && last.sentSince(since)) {
        ask = last;
      } else if (onItsWay != null && onItsWay.sentSince(since)) {
        ask = onItsWay;
      } else if (onItsWay == null) {
        ask = new Ask(deadline);
        onItsWay = ask;
        send = true;
      } else if (next == null) {
        ask = new Ask(deadline);
        next = ask;
      } else {
        ask = next;
        if (deadline.remaining().compareTo(ask.end.remaining()) > 0) {
          ask.end = deadline;
        }
      }
    }
    if (send) {
      // The first ask goes from the reader that needs it, sparing a lone read a thread's wake-up;
      // the asks that gathered behind it go from the sender.
      Ask following = send(ask);
      if (following != null) {
        sender.execute(() -> sendFrom(following));
      }
    }
    try {
      return ask.answer.get(Math.max(0, deadline.remaining().toNanos()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new SQLTransientConnectionException(
          "the source did not say what it executed within the read's budget", "08001");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql;
      }
      throw new SQLException("asking the source what it executed failed", "08001", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLTransientConnectionException(
          "interrupted while asking the source what it executed", "08001");
    }
  }

  /** Asks sent so far. */
  long asked() {
    return asked.get();
  }

  /** The source's executed set, read now on the asks' connection, by {@code end}. */
  private GtidSet executed(Deadline end) throws SQLException {
    DataSource source = routes.source().dataSource();
    if (source == null) {
      throw new SQLTransientConnectionException("no source is known", "08001");
    }
    Connection c = asks.take(source, end);
    try (SocketTimeout bound = SocketTimeout.limit(c, SocketTimeout.millisLeft(end.remaining()))) {
      GtidSet executed = Dialect.of(c).executed(c);
      if (!c.getAutoCommit()) {
        // A pool that hands out connections in a transaction: the kept one must not hold it open.
        c.rollback();
      }
      asks.keep(c);
      return executed;
    } catch (SQLException | RuntimeException e) {
      asks.drop(c);
      throw e;
    }
  }

  private void sendFrom(Ask first) {
    for (Ask ask = first; ask != null; ) {
      ask = send(ask);
    }
  }

  /** Sends {@code ask} and answers it; returns the ask to send next, if any gathered meanwhile. */
  private @Nullable Ask send(Ask ask) {
    asked.incrementAndGet();
    ask.sentAt = ticker.read();
    ask.sent = true;
    boolean answered = false;
    try {
      ask.answer.complete(executed(ask.end));
      answered = true;
    } catch (SQLException | RuntimeException e) {
      ask.answer.completeExceptionally(e);
    }
    synchronized (this) {
      if (answered) {
        last = ask;
      }
      onItsWay = next;
      next = null;
      return onItsWay;
    }
  }
}
