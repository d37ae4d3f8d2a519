package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistentReadException;
import io.tidemark.Reason;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Reads the reader refuses, as tests expect them: by the reason the refusal gives. */
final class Refusals {

  private Refusals() {}

  /** {@code read} throws a {@link ConsistentReadException} for {@code reason}. */
  static void assertRefused(Reason reason, ThrowingCallable read) {
    assertThatThrownBy(read)
        .isInstanceOfSatisfying(
            ConsistentReadException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }
}
