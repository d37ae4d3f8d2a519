package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.FaultLink.Direction;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The byte-level behaviour of a {@link FaultLink}, in front of an echo server. */
class FaultLinkTests {

  private EchoServer echo;
  private FaultLink link;

  @BeforeEach
  void start() throws IOException {
    echo = new EchoServer();
    link = FaultLink.to("127.0.0.1", echo.port());
  }

  @AfterEach
  void stop() throws IOException {
    link.close();
    echo.close();
  }

  @Test
  void forwardsEveryByteBothWaysUnchanged() throws Exception {
    byte[] sent = new byte[4 << 20];
    new Random(7).nextBytes(sent);
    try (Socket socket = connect()) {
      assertThat(Poll.until(() -> link.openConnections() == 1, Duration.ofSeconds(5))).isTrue();
      CompletableFuture<Void> writing = writeAsync(socket, sent);
      byte[] received = socket.getInputStream().readNBytes(sent.length);
      writing.get();
      assertThat(received).isEqualTo(sent);
    }
    assertThat(Poll.until(() -> link.openConnections() == 0, Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void jitteredBytesArriveLateButInOrder() throws Exception {
    link.latency(Direction.BOTH, Duration.ofMillis(20), Duration.ofMillis(40));
    int messages = 100;
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      long started = System.nanoTime();
      for (int i = 0; i < messages; i++) {
        out.write(ByteBuffer.allocate(4).putInt(i).array());
        out.flush();
        // Paced, so that the link reads each message apart and gives each a delay of its own.
        Thread.sleep(1);
      }
      byte[] first = socket.getInputStream().readNBytes(4);
      Duration firstRoundTrip = Duration.ofNanos(System.nanoTime() - started);
      ByteBuffer received = ByteBuffer.wrap(socket.getInputStream().readNBytes(4 * (messages - 1)));

      assertThat(firstRoundTrip).isGreaterThanOrEqualTo(Duration.ofMillis(40));
      assertThat(ByteBuffer.wrap(first).getInt()).isZero();
      for (int i = 1; i < messages; i++) {
        assertThat(received.getInt()).as("message %d", i).isEqualTo(i);
      }
    }
  }

  @Test
  void bandwidthCapSlowsATransferToTheCap() throws Exception {
    long perSecond = 64 * 1024;
    link.bandwidth(Direction.UPSTREAM, perSecond);
    byte[] sent = new byte[192 * 1024];
    new Random(11).nextBytes(sent);
    try (Socket socket = connect()) {
      long started = System.nanoTime();
      CompletableFuture<Void> writing = writeAsync(socket, sent);
      byte[] received = socket.getInputStream().readNBytes(sent.length);
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      writing.get();

      assertThat(received).isEqualTo(sent);
      // Three seconds at the cap, less the burst the link allows at once.
      assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(2500));
    }
  }

  @Test
  void blackHoleHoldsBytesUntilHealed() throws Exception {
    try (Socket socket = connect()) {
      assertNoEchoUntilHealed(socket, () -> link.blackHole(Direction.UPSTREAM));
      socket.setSoTimeout(5000);
      assertThat(socket.getInputStream().readNBytes(1000)).hasSize(1000);
    }
  }

  @Test
  void droppedDirectionLosesItsBytesForGood() throws Exception {
    try (Socket socket = connect()) {
      assertNoEchoUntilHealed(socket, () -> link.drop(Direction.UPSTREAM));
      socket.getOutputStream().write(new byte[] {1, 2, 3});
      assertThat(socket.getInputStream().readNBytes(3)).containsExactly(1, 2, 3);
      assertThatThrownBy(() -> socket.getInputStream().read())
          .as("nothing of the dropped bytes comes later")
          .isInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void unreachableTargetResetsTheClient() throws Exception {
    try (FaultLink nowhere = FaultLink.to("127.0.0.1", FreePorts.next())) {
      // The reset may reach the client while it still connects, or at its first read.
      assertThatThrownBy(
              () -> {
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), nowhere.port())) {
                  socket.setSoTimeout(5000);
                  socket.getInputStream().read();
                }
              })
          .isInstanceOf(SocketException.class)
          .hasMessageContaining("reset");
    }
  }

  @Test
  void closeEndsItsConnectionsItsPortAndItsThread() throws Exception {
    try (Socket socket = connect()) {
      socket.setSoTimeout(5000);
      assertThat(Poll.until(() -> link.openConnections() == 1, Duration.ofSeconds(5))).isTrue();
      link.close();
      assertThat(socket.getInputStream().read()).isEqualTo(-1);
    }
    assertThatThrownBy(this::connect).isInstanceOf(ConnectException.class);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("tidemark-fault-link-" + link.port() + "-"));
    assertThatThrownBy(link::heal).isInstanceOf(IllegalStateException.class);
  }

  /**
   * With {@code fault} on the link, 1000 bytes written to {@code socket} are not echoed within 500
   * ms; then the link is healed.
   */
  private void assertNoEchoUntilHealed(Socket socket, Runnable fault) throws IOException {
    socket.setSoTimeout(500);
    fault.run();
    socket.getOutputStream().write(new byte[1000]);
    assertThatThrownBy(() -> socket.getInputStream().read())
        .isInstanceOf(SocketTimeoutException.class);

    link.heal();
  }

  private Socket connect() throws IOException {
    return new Socket(InetAddress.getLoopbackAddress(), link.port());
  }

  private static CompletableFuture<Void> writeAsync(Socket socket, byte[] bytes) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
  }
}
