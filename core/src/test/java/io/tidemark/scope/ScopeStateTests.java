package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScopeStateTests {

  private static final GtidSet ONE = GtidSet.parse(ScopeStoreContract.A + ":1");
  private static final GtidSet TWO = GtidSet.parse(ScopeStoreContract.B + ":2");

  @Test
  void combiningUnionsGtidsAndKeepsTheWorseStatus() {
    ScopeState known = ScopeState.known(ONE);
    ScopeState dirty = ScopeState.dirty(TWO, "capture failed");
    ScopeState unknown = ScopeState.unknown("redis down");

    assertThat(known.and(ScopeState.known(TWO))).isEqualTo(ScopeState.known(ONE.union(TWO)));
    assertThat(known.and(dirty)).isEqualTo(ScopeState.dirty(ONE.union(TWO), "capture failed"));
    assertThat(dirty.and(known)).isEqualTo(ScopeState.dirty(ONE.union(TWO), "capture failed"));
    assertThat(dirty.and(unknown).status()).isEqualTo(ScopeState.Status.UNKNOWN);
    assertThat(dirty.and(unknown).because()).isEqualTo("redis down");
    assertThat(ScopeState.known(GtidSet.EMPTY)).isSameAs(ScopeState.EMPTY);
  }

  @Test
  void anUnknownScopeIsNeverAnEmptyOne() {
    ScopeState unknown = ScopeState.unknown("redis down");
    assertThat(unknown).isNotEqualTo(ScopeState.EMPTY);
    assertThat(unknown.requiresSource()).isTrue();
    assertThat(ScopeState.EMPTY.requiresSource()).isFalse();
    assertThatThrownBy(() -> new ScopeState(ScopeState.Status.UNKNOWN, GtidSet.EMPTY, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScopeState(ScopeState.Status.KNOWN, GtidSet.EMPTY, "why"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void appliedToAContextAScopeThatNeedsTheSourceMakesItDirty() {
    try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      ScopeState.known(ONE).applyTo(binding.context());
      assertThat(binding.context().gtids()).isEqualTo(ONE);
      assertThat(binding.context().isDirty()).isFalse();

      ScopeState.unknown("scope store unreadable").applyTo(binding.context());
      assertThat(binding.context().isDirty()).isTrue();
      assertThat(binding.context().dirtyBecause()).isEqualTo("scope store unreadable");
    }
  }

  @Test
  void scopeKeysNameUsersSessionsAndObjectsAndFitInAHashTag() {
    assertThat(ScopeKey.user("alice")).hasToString("user:alice");
    assertThat(ScopeKey.session("3f9c")).hasToString("session:3f9c");
    assertThat(ScopeKey.object("order", "101")).hasToString("object:order:101");
    assertThat(ScopeKey.of("object:order:101")).isEqualTo(ScopeKey.object("order", "101"));
    for (String bad : List.of("", "a{b", "a}b", "a b", "a\nb", "x".repeat(257))) {
      assertThatThrownBy(() -> ScopeKey.of(bad)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> ScopeKey.user("")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void configurationDefaultsAndChecks() {
    ScopeStoreConfig defaults = ScopeStoreConfig.defaults();
    assertThat(defaults.commandTimeout()).isEqualTo(Duration.ofMillis(50));
    assertThat(defaults.timeToLive()).isEqualTo(Duration.ofHours(1));
    assertThat(defaults.dirtyTimeToLive()).isEqualTo(Duration.ofMinutes(10));
    assertThat(defaults.maxIntervals()).isEqualTo(128);
    assertThat(defaults.localTimeToLive()).isEqualTo(Duration.ofSeconds(1));
    assertThat(defaults.invalidationChannel()).isEqualTo("tidemark:scope:changed");
    assertThatThrownBy(() -> ScopeStoreConfig.builder().invalidationChannel(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(defaults.toBuilder().commandTimeout(Duration.ofMillis(3)).build().commandTimeout())
        .isEqualTo(Duration.ofMillis(3));
    assertThatThrownBy(() -> ScopeStoreConfig.builder().keyPrefix("a{"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ScopeStoreConfig.builder().commandTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ScopeStoreConfig.builder().maxIntervals(0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
