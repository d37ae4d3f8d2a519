package io.tidemark.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import org.jspecify.annotations.Nullable;

/**
 * One client connection accepted by a {@link FaultLink} and its connection to the target, with a
 * {@link Flow} each way once both are open. Used only by the link's selector thread.
 */
final class ProxiedConnection {

  private final SocketChannel client;
  private final SelectionKey clientKey;
  private @Nullable SocketChannel server;
  private @Nullable SelectionKey serverKey;
  private @Nullable Flow upstream;
  private @Nullable Flow downstream;
  private boolean closed;

  ProxiedConnection(SocketChannel client, Selector selector) throws IOException {
    this.client = client;
    client.configureBlocking(false);
    client.setOption(StandardSocketOptions.TCP_NODELAY, true);
    clientKey = client.register(selector, 0, this);
  }

  /** Whether the connection to the target was started: it waits while upstream is black-holed. */
  boolean connecting() {
    return server != null;
  }

  void connect(InetSocketAddress target, Selector selector) throws IOException {
    SocketChannel channel = SocketChannel.open();
    server = channel;
    channel.configureBlocking(false);
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    serverKey = channel.register(selector, SelectionKey.OP_CONNECT, this);
    if (channel.connect(target)) {
      open(channel);
    }
  }

  void finishConnect() throws IOException {
    SocketChannel channel = server;
    if (channel != null && channel.finishConnect()) {
      open(channel);
    }
  }

  private void open(SocketChannel channel) {
    upstream = new Flow(client, channel);
    downstream = new Flow(channel, client);
  }

  /**
   * Moves what each direction can, and returns when something is next due, or {@link Flow#NEVER}.
   */
  long pump(long now, DirectionFaults up, DirectionFaults down, ByteBuffer scratch)
      throws IOException {
    Flow toServer = upstream;
    Flow toClient = downstream;
    SelectionKey serverSide = serverKey;
    if (toServer == null || toClient == null || serverSide == null) {
      return Flow.NEVER;
    }
    long next = Math.min(toServer.pump(now, up, scratch), toClient.pump(now, down, scratch));
    if (toServer.finished() && toClient.finished()) {
      close();
      return Flow.NEVER;
    }
    clientKey.interestOps(ops(toServer.wantsRead(up), toClient.wantsWrite(down)));
    serverSide.interestOps(ops(toClient.wantsRead(down), toServer.wantsWrite(up)));
    return next;
  }

  private static int ops(boolean read, boolean write) {
    return (read ? SelectionKey.OP_READ : 0) | (write ? SelectionKey.OP_WRITE : 0);
  }

  boolean closed() {
    return closed;
  }

  /** Closes both sockets with a FIN, dropping what still waits. */
  void close() {
    closed = true;
    closeQuietly(client);
    if (server != null) {
      closeQuietly(server);
    }
  }

  /** Closes both sockets with a RST (linger zero), as a crashed peer or a middlebox would. */
  void reset() {
    lingerZero(client);
    if (server != null) {
      lingerZero(server);
    }
    close();
  }

  static void resetQuietly(SocketChannel channel) {
    lingerZero(channel);
    closeQuietly(channel);
  }

  private static void lingerZero(SocketChannel channel) {
    try {
      channel.setOption(StandardSocketOptions.SO_LINGER, 0);
    } catch (IOException | RuntimeException alreadyClosed) {
      // Closed by the peer first: nothing left to reset.
    }
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // Nothing is waiting on a socket that is being discarded.
    }
  }
}
