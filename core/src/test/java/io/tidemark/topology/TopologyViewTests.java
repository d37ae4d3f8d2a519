package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TopologyViewTests {

  @Test
  void aFloodOfRefreshesCostsAHungNodeOneProbeRunningAndOneQueued() throws Exception {
    AtomicInteger probes = new AtomicInteger();
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket hung = new ServerSocket(0)) {
      // Accepts every connection and never says a word, as a frozen server does.
      Thread acceptor =
          new Thread(
              () -> {
                while (!hung.isClosed()) {
                  try {
                    held.add(hung.accept());
                    probes.incrementAndGet();
                  } catch (IOException closed) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      NodeConfig node =
          new NodeConfig(
              "frozen", "jdbc:mysql://127.0.0.1:" + hung.getLocalPort() + "/", "root", "");
      try (TopologyView view =
          TopologyView.builder(List.of(node))
              .refreshInterval(Duration.ofMinutes(10))
              .probeTimeouts(Duration.ofSeconds(1), Duration.ofMillis(200))
              .build()) {
        view.start();
        int afterStart = probes.get();

        for (int i = 0; i < 100; i++) {
          view.refreshNow();
        }
        // Joins the probe queued behind the running one: nothing else is left to run.
        view.refreshNow().orTimeout(5, TimeUnit.SECONDS).join();

        assertThat(probes.get() - afterStart)
            .as("probes after 101 refreshes: one running, one queued")
            .isBetween(1, 2);
        assertThat(view.snapshot().node("frozen").orElseThrow().readable()).isFalse();
      }
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }
}
