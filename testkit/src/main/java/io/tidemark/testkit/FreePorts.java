package io.tidemark.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks free loopback ports at run time. */
final class FreePorts {

  private FreePorts() {}

  static int next() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new TestkitException("no free loopback port", e);
    }
  }
}
