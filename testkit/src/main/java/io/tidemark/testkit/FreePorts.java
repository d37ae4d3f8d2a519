package io.tidemark.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks free loopback ports at run time, each at most once per JVM: servers bind their ports only
 * when they start, so a port just handed out still looks free, and the system may offer it again —
 * two servers of one topology on one port made a replica replicate from itself.
 */
public final class FreePorts {

  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  public static int next() {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = probe();
      if (HANDED_OUT.add(port)) {
        return port;
      }
    }
    throw new TestkitException("no loopback port that was not handed out already");
  }

  private static int probe() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new TestkitException("no free loopback port", e);
    }
  }
}
