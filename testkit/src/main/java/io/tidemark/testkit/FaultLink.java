package io.tidemark.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A TCP proxy on a free loopback port in front of one server, for the network faults the kernel
 * cannot make here (no {@code tc netem}, no iptables): clients connect to {@link #port()} instead
 * of the server, and every fault can be switched on and off while they run. Upstream is client to
 * server, downstream server to client. One daemon selector thread forwards every connection; each
 * setter returns once the fault is in force, so the next byte a test sends meets it.
 *
 * <pre>{@code
 * try (FaultLink link = FaultLink.to("127.0.0.1", 3306)) {
 *   link.latency(Direction.BOTH, Duration.ofMillis(50), Duration.ofMillis(20));
 *   link.partition(); // connections hang, new ones too
 *   link.heal();      // every fault cleared, held bytes flow on
 * }
 * }</pre>
 */
public final class FaultLink implements AutoCloseable {

  /** Which way bytes travel through a link. */
  public enum Direction {
    /** From the client to the server. */
    UPSTREAM,
    /** From the server to the client. */
    DOWNSTREAM,
    /** Both ways. */
    BOTH;

    boolean includes(Direction one) {
      return this == BOTH || this == one;
    }
  }

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

  private final InetSocketAddress target;
  private final int port;
  private final ServerSocketChannel listener;
  private final Selector selector;
  private final Thread loop;
  private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
  private final List<ProxiedConnection> connections = new ArrayList<>();
  private final DirectionFaults upstream = new DirectionFaults();
  private final DirectionFaults downstream = new DirectionFaults();
  private final ByteBuffer scratch = ByteBuffer.allocateDirect(64 * 1024);
  private boolean refusing;
  private volatile int open;
  private volatile boolean closed;

  private FaultLink(InetSocketAddress target) throws IOException {
    this.target = target;
    selector = Selector.open();
    listener = ServerSocketChannel.open();
    try {
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      listener.configureBlocking(false);
      listener.register(selector, SelectionKey.OP_ACCEPT);
      port = listener.socket().getLocalPort();
    } catch (IOException e) {
      listener.close();
      selector.close();
      throw e;
    }
    loop = new Thread(this::run, "tidemark-fault-link-" + port() + "-to-" + target.getPort());
    loop.setDaemon(true);
  }

  /** Starts a link forwarding to {@code host:port}, listening on a free loopback port. */
  public static FaultLink to(String host, int port) {
    FaultLink link;
    try {
      link = new FaultLink(new InetSocketAddress(host, port));
    } catch (IOException e) {
      throw new TestkitException("cannot open a link to " + host + ":" + port, e);
    }
    link.loop.start();
    return link;
  }

  /** The loopback port clients connect to. */
  public int port() {
    return port;
  }

  boolean closed() {
    return closed;
  }

  /** Connections open through the link now, counted from the client side. */
  public int openConnections() {
    return open;
  }

  /**
   * Delays every byte in {@code direction} by {@code fixed} plus a uniformly random share of {@code
   * jitter}; a connection's bytes keep their order, so a jittered byte also holds back the ones
   * after it. Bytes already on their way keep their delay.
   */
  public FaultLink latency(Direction direction, Duration fixed, Duration jitter) {
    if (fixed.isNegative() || jitter.isNegative()) {
      throw new IllegalArgumentException("latency must not be negative: " + fixed + ", " + jitter);
    }
    return each(direction, faults -> faults.latency(fixed, jitter));
  }

  /** Caps {@code direction} at {@code bytesPerSecond}, shared by every connection; 0 lifts it. */
  public FaultLink bandwidth(Direction direction, long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bandwidth must not be negative: " + bytesPerSecond);
    }
    return each(direction, faults -> faults.bandwidth(bytesPerSecond, System.nanoTime()));
  }

  /**
   * Holds every byte in {@code direction}: nothing is forwarded and nothing is lost, so a client
   * waits with no answer, and once {@linkplain #heal() healed} the held bytes flow on, as TCP
   * delivers them when a network comes back. Bytes are left in the socket buffers, so a sender that
   * keeps sending is blocked, as by a full TCP window. A black-holed upstream also holds new
   * connections before they reach the server.
   */
  public FaultLink blackHole(Direction direction) {
    return each(direction, DirectionFaults::blackHole);
  }

  /**
   * Reads and discards every byte in {@code direction}, for half-open connections: with downstream
   * dropped a query reaches the server and its answer never comes back. Dropped bytes are gone for
   * good; a peer's close is still passed on.
   */
  public FaultLink drop(Direction direction) {
    return each(direction, DirectionFaults::drop);
  }

  /** Black-holes both directions of every open and new connection until {@link #heal()}. */
  public FaultLink partition() {
    return blackHole(Direction.BOTH);
  }

  /**
   * Resets every open connection (RST on both sides, from a zero linger), so the client's next read
   * or write fails while the server stays up. New connections are forwarded as before.
   */
  public FaultLink resetConnections() {
    return onLoop(
        () -> {
          connections.forEach(ProxiedConnection::reset);
          forgetClosed();
          flushClosedSockets();
        });
  }

  /**
   * While {@code refuse}, every new connection is accepted and reset at once; open ones go on. The
   * port stays bound rather than closed, because a port let go can be taken by another process on
   * the machine before the link binds it again; a client sees the same immediate failure as for a
   * refused connection.
   */
  public FaultLink refuseNew(boolean refuse) {
    return onLoop(() -> refusing = refuse);
  }

  /** Clears every fault: no latency, no cap, nothing held or dropped, new connections accepted. */
  public FaultLink heal() {
    return onLoop(
        () -> {
          upstream.clear();
          downstream.clear();
          refusing = false;
        });
  }

  /** Closes every connection, the port and the thread. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    selector.wakeup();
    try {
      loop.join(COMMAND_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private FaultLink each(Direction direction, Consumer<DirectionFaults> change) {
    return onLoop(
        () -> {
          if (direction.includes(Direction.UPSTREAM)) {
            change.accept(upstream);
          }
          if (direction.includes(Direction.DOWNSTREAM)) {
            change.accept(downstream);
          }
        });
  }

  /** Runs {@code command} on the selector thread and waits for it, so no fault lands late. */
  private FaultLink onLoop(Runnable command) {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    commands.add(
        () -> {
          try {
            command.run();
            done.complete(null);
          } catch (RuntimeException e) {
            done.completeExceptionally(e);
          }
        });
    selector.wakeup();
    try {
      done.get(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TestkitException("interrupted while changing " + this, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new TestkitException("cannot change " + this, e);
    }
    return this;
  }

  private void run() {
    try {
      long next = Flow.NEVER;
      while (!closed) {
        long left = next - System.nanoTime();
        if (next == Flow.NEVER) {
          selector.select();
        } else if (left <= 0) {
          selector.selectNow();
        } else {
          // Rounded up: a timeout rounded down to zero would mean no timeout at all.
          selector.select((left + 999_999) / 1_000_000);
        }
        for (SelectionKey key : selector.selectedKeys()) {
          handle(key);
        }
        selector.selectedKeys().clear();
        runCommands();
        next = pumpAll();
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("tidemark-testkit: " + this + " stopped: " + e);
    } finally {
      shutDown();
    }
  }

  private void handle(SelectionKey key) {
    if (!key.isValid()) {
      return;
    }
    if (key.isAcceptable()) {
      acceptAll();
    } else if (key.isConnectable() && key.attachment() instanceof ProxiedConnection connection) {
      try {
        connection.finishConnect();
      } catch (IOException unreachable) {
        // The client learns the target is down as it would without the link: a reset.
        connection.reset();
      }
    }
  }

  private void acceptAll() {
    try {
      for (SocketChannel client = listener.accept(); client != null; client = listener.accept()) {
        if (refusing) {
          ProxiedConnection.resetQuietly(client);
        } else {
          connections.add(new ProxiedConnection(client, selector));
        }
      }
    } catch (IOException e) {
      System.err.println("tidemark-testkit: " + this + " cannot accept: " + e);
    }
    open = connections.size();
  }

  private long pumpAll() {
    long now = System.nanoTime();
    long next = Flow.NEVER;
    for (ProxiedConnection connection : connections) {
      if (connection.closed()) {
        continue;
      }
      try {
        if (!connection.connecting() && !upstream.blackHoled()) {
          connection.connect(target, selector);
        }
        next = Math.min(next, connection.pump(now, upstream, downstream, scratch));
      } catch (IOException | RuntimeException broken) {
        // One side failed or reset: the other side learns it the same way.
        connection.reset();
      }
    }
    forgetClosed();
    return next;
  }

  private void runCommands() {
    for (Runnable command = commands.poll(); command != null; command = commands.poll()) {
      command.run();
    }
  }

  private void forgetClosed() {
    connections.removeIf(ProxiedConnection::closed);
    open = connections.size();
  }

  /**
   * Closing a registered channel leaves its socket open until the selector drops its key, so a
   * reset would reach the client only at the next select.
   */
  private void flushClosedSockets() {
    try {
      selector.selectNow();
    } catch (IOException e) {
      throw new TestkitException("cannot flush the sockets of " + this, e);
    }
  }

  private void shutDown() {
    closed = true;
    connections.forEach(ProxiedConnection::close);
    connections.clear();
    open = 0;
    try {
      listener.close();
      selector.close();
    } catch (IOException e) {
      System.err.println("tidemark-testkit: cannot close " + this + ": " + e);
    }
    // A change asked for while the link closed must not leave its caller waiting.
    runCommands();
  }

  @Override
  public String toString() {
    return "FaultLink(127.0.0.1:"
        + port()
        + " -> "
        + target.getHostString()
        + ":"
        + target.getPort()
        + ")";
  }
}
