package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReadOptionsTests {

  private static final GtidSet TOKEN = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-7");

  @Test
  void defaultsToOneSecondFallbackTheContextsTokenAndNoRevision() {
    ReadOptions defaults = ReadOptions.defaults();

    assertThat(defaults.timeout())
        .isEqualTo(ReadOptions.DEFAULT_TIMEOUT)
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(defaults.policy()).isEqualTo(ReadPolicy.FALLBACK_TO_SOURCE);
    assertThat(defaults.required()).isNull();
    assertThat(defaults.minRevision()).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void rejectsANegativeTimeoutButAcceptsZero() {
    assertThatThrownBy(() -> ReadOptions.defaults().withTimeout(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout");

    assertThat(ReadOptions.defaults().withTimeout(Duration.ZERO).timeout()).isZero();
  }

  @Test
  void eachWithReturnsACopyAndLeavesTheOriginalUnchanged() {
    ReadOptions original = ReadOptions.defaults();

    ReadOptions timed = original.withTimeout(Duration.ofMillis(250));
    ReadOptions failing = timed.withPolicy(ReadPolicy.FAIL);
    ReadOptions tokened = failing.requiring(TOKEN);
    ReadOptions revised = tokened.withMinRevision(42);

    assertThat(revised.timeout()).isEqualTo(Duration.ofMillis(250));
    assertThat(revised.policy()).isEqualTo(ReadPolicy.FAIL);
    assertThat(revised.required()).isEqualTo(TOKEN);
    assertThat(revised.minRevision()).isEqualTo(42);

    assertThat(tokened.minRevision()).isEqualTo(Long.MIN_VALUE);
    assertThat(failing.required()).isNull();
    assertThat(timed.policy()).isEqualTo(ReadPolicy.FALLBACK_TO_SOURCE);
    assertThat(original.timeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(original).isNotSameAs(timed).isNotSameAs(failing).isNotSameAs(tokened);
    assertThat(ReadOptions.defaults().required()).isNull();
    assertThat(ReadOptions.defaults().minRevision()).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void rejectsAMissingPolicyOrToken() {
    assertThatThrownBy(() -> ReadOptions.defaults().withPolicy(null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> ReadOptions.defaults().requiring(null))
        .isInstanceOf(NullPointerException.class);
  }
}
