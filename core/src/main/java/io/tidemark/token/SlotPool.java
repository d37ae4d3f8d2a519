package io.tidemark.token;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Reusable objects that are not thread-safe, lent to one caller at a time without locks: each
 * thread takes from and gives back to the slot its id selects, and makes a new object when the slot
 * is empty, because another thread with the same slot holds it or it was never filled.
 *
 * <p>Unlike a thread-local, this keeps at most one object per slot however many threads there are,
 * so a million virtual threads cost no more than a few platform ones. A thread that is preempted
 * while it holds an object only makes the next caller of its slot allocate; an object given back to
 * a slot that was refilled meanwhile replaces the other, which the collector takes.
 */
final class SlotPool<T> {

  /** Slots 16 references apart, a cache line or more, so two cores do not contend for one line. */
  private static final int SPREAD = 16;

  private final AtomicReferenceArray<T> slots;
  private final int mask;
  private final Supplier<T> factory;

  /** A pool filled by {@code factory}, with a few slots per processor so threads seldom meet. */
  SlotPool(Supplier<T> factory) {
    int count = Integer.highestOneBit(4 * Runtime.getRuntime().availableProcessors() - 1) << 1;
    this.slots = new AtomicReferenceArray<>(count * SPREAD);
    this.mask = count - 1;
    this.factory = factory;
  }

  /** An object for the calling thread alone until it gives it back. */
  T take() {
    T object = slots.getAndSet(slot(), null);
    return object != null ? object : factory.get();
  }

  /** Returns an object taken from this pool; the caller must not use it afterwards. */
  void giveBack(T object) {
    // The release store publishes the object's state to the next taker's getAndSet.
    slots.setRelease(slot(), object);
  }

  private int slot() {
    return ((int) Thread.currentThread().getId() & mask) * SPREAD;
  }
}
