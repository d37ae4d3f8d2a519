package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SlotPoolTests {

  @Test
  void lendsAnObjectGivenBackToTheNextTakeOfTheSameThread() {
    AtomicInteger made = new AtomicInteger();
    SlotPool<Object> pool = new SlotPool<>(() -> made.incrementAndGet());

    Object first = pool.take();
    pool.giveBack(first);

    assertThat(pool.take()).isSameAs(first);
    assertThat(made).hasValue(1);
  }

  @Test
  void makesAnotherObjectWhileItsSlotIsLentOut() {
    SlotPool<Object> pool = new SlotPool<>(Object::new);

    Object held = pool.take();

    assertThat(pool.take()).isNotSameAs(held);
  }

  @Test
  void neverLendsOneObjectToTwoThreadsAtOnce() throws Exception {
    SlotPool<AtomicBoolean> pool = new SlotPool<>(AtomicBoolean::new);
    ExecutorService threads = Executors.newFixedThreadPool(16);
    try {
      List<Future<Integer>> clashes = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        clashes.add(threads.submit(() -> borrowRepeatedly(pool)));
      }
      for (Future<Integer> clash : clashes) {
        assertThat(clash.get()).isZero();
      }
    } finally {
      threads.shutdown();
    }
  }

  /** Takes and gives back many times; how often the object taken was in use elsewhere. */
  private static int borrowRepeatedly(SlotPool<AtomicBoolean> pool) {
    int clashes = 0;
    for (int i = 0; i < 100_000; i++) {
      AtomicBoolean inUse = pool.take();
      if (!inUse.compareAndSet(false, true)) {
        clashes++;
      }
      Thread.onSpinWait();
      inUse.set(false);
      pool.giveBack(inUse);
    }
    return clashes;
  }
}
