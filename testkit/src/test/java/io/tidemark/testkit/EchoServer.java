package io.tidemark.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Sends back every byte it receives, so a test sees both directions of a link in one stream. */
final class EchoServer implements AutoCloseable {

  private final ServerSocket socket;

  EchoServer() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptAll, "echo-" + socket.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        Thread echo = new Thread(() -> echo(client), "echo-" + client.getPort());
        echo.setDaemon(true);
        echo.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private static void echo(Socket client) {
    try (client;
        InputStream in = client.getInputStream();
        OutputStream out = client.getOutputStream()) {
      in.transferTo(out);
    } catch (IOException peerGone) {
      // The test is done with this connection.
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
