package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistentReadException;
import io.tidemark.Reason;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Reads the reader refuses, as tests expect them: by the reason the refusal gives. */
final class Refusals {

  private Refusals() {}

  /** {@code read} throws a {@link ConsistentReadException} for {@code reason}. */
  static void assertRefused(Reason reason, ThrowingCallable read) {
    assertRefused(reason, read, refusal -> {});
  }

  /**
   * As {@link #assertRefused(Reason, ThrowingCallable)}, the refusal also satisfying {@code more}.
   */
  static void assertRefused(
      Reason reason, ThrowingCallable read, Consumer<ConsistentReadException> more) {
    assertThatThrownBy(read)
        .isInstanceOfSatisfying(
            ConsistentReadException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              more.accept(e);
            });
  }
}
