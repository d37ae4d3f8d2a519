package io.tidemark.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * One direction of one proxied connection: bytes read from one socket wait in order, each chunk
 * until its due time, then are written to the other socket as the bandwidth budget allows.
 */
final class Flow {

  /**
   * Past this many waiting bytes the flow stops reading, so a slow side pushes back on the other.
   */
  private static final int MAX_WAITING = 1 << 20;

  static final long NEVER = Long.MAX_VALUE;

  private record Chunk(ByteBuffer bytes, long due) {}

  private final SocketChannel from;
  private final SocketChannel to;
  private final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
  private int waiting;
  private long lastDue = Long.MIN_VALUE;
  private boolean ended;
  private boolean shut;
  private boolean blocked;

  Flow(SocketChannel from, SocketChannel to) {
    this.from = from;
    this.to = to;
  }

  /**
   * Moves what it can and returns when it next has something due, or {@link #NEVER}. A black hole
   * neither reads nor writes: the bytes wait in the socket buffers and here, and flow on when the
   * hole is healed, as TCP delivers them once a network comes back.
   */
  long pump(long now, DirectionFaults faults, ByteBuffer scratch) throws IOException {
    if (faults.blackHoled()) {
      return NEVER;
    }
    read(now, faults, scratch);
    return write(now, faults);
  }

  private void read(long now, DirectionFaults faults, ByteBuffer scratch) throws IOException {
    while (!ended && waiting < MAX_WAITING) {
      scratch.clear();
      int count = from.read(scratch);
      if (count < 0) {
        ended = true;
      } else if (count == 0) {
        return;
      } else if (!faults.dropped()) {
        scratch.flip();
        // A later chunk never overtakes an earlier one, whatever their jitter.
        lastDue = Math.max(lastDue, now + faults.delay());
        chunks.add(new Chunk(ByteBuffer.allocate(count).put(scratch).flip(), lastDue));
        waiting += count;
      }
    }
  }

  private long write(long now, DirectionFaults faults) throws IOException {
    blocked = false;
    while (!chunks.isEmpty()) {
      Chunk head = chunks.peek();
      if (head.due() > now) {
        return head.due();
      }
      ByteBuffer bytes = head.bytes();
      long allowed = Math.min(bytes.remaining(), faults.allowance(now));
      if (allowed == 0) {
        return faults.allowanceAt(now, bytes.remaining());
      }
      int written = to.write(bytes.slice(bytes.position(), (int) allowed));
      bytes.position(bytes.position() + written);
      faults.spend(written);
      if (written < allowed) {
        blocked = true;
        return NEVER;
      }
      if (!bytes.hasRemaining()) {
        chunks.poll();
        waiting -= bytes.capacity();
      }
    }
    if (ended && !shut) {
      // The end of the stream is passed on even when the direction drops its bytes: it is the
      // peer closing, not data.
      to.shutdownOutput();
      shut = true;
    }
    return NEVER;
  }

  /** Whether the flow wants to read its source: not black-holed, not ended, not too far behind. */
  boolean wantsRead(DirectionFaults faults) {
    return !faults.blackHoled() && !ended && waiting < MAX_WAITING;
  }

  /** Whether its last write filled the socket buffer, so it waits until the socket is writable. */
  boolean wantsWrite(DirectionFaults faults) {
    return blocked && !faults.blackHoled();
  }

  /** Whether the stream ended and all of it was passed on. */
  boolean finished() {
    return shut;
  }
}
