package io.tidemark.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.GtidSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScopeTokenTests {

  private static final GtidSet ONE = GtidSet.parse(TokenStoreContract.A + ":1");
  private static final GtidSet TWO = GtidSet.parse(TokenStoreContract.B + ":2");

  @Test
  void combiningUnionsGtidsAndKeepsTheWorseStatus() {
    ScopeToken known = ScopeToken.known(ONE);
    ScopeToken dirty = ScopeToken.dirty(TWO, "capture failed");
    ScopeToken unknown = ScopeToken.unknown("redis down");

    assertThat(known.and(ScopeToken.known(TWO))).isEqualTo(ScopeToken.known(ONE.union(TWO)));
    assertThat(known.and(dirty)).isEqualTo(ScopeToken.dirty(ONE.union(TWO), "capture failed"));
    assertThat(dirty.and(known)).isEqualTo(ScopeToken.dirty(ONE.union(TWO), "capture failed"));
    assertThat(dirty.and(unknown).status()).isEqualTo(ScopeToken.Status.UNKNOWN);
    assertThat(dirty.and(unknown).because()).isEqualTo("redis down");
    assertThat(ScopeToken.known(GtidSet.EMPTY)).isSameAs(ScopeToken.EMPTY);
  }

  @Test
  void anUnknownScopeIsNeverAnEmptyOne() {
    ScopeToken unknown = ScopeToken.unknown("redis down");
    assertThat(unknown).isNotEqualTo(ScopeToken.EMPTY);
    assertThat(unknown.requiresSource()).isTrue();
    assertThat(ScopeToken.EMPTY.requiresSource()).isFalse();
    assertThatThrownBy(() -> new ScopeToken(ScopeToken.Status.UNKNOWN, GtidSet.EMPTY, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScopeToken(ScopeToken.Status.KNOWN, GtidSet.EMPTY, "why"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void appliedToAContextAScopeThatNeedsTheSourceMakesItDirty() {
    try (ConsistencyContext.Scope scope = ConsistencyContext.open()) {
      ScopeToken.known(ONE).applyTo(scope.context());
      assertThat(scope.context().gtids()).isEqualTo(ONE);
      assertThat(scope.context().isDirty()).isFalse();

      ScopeToken.unknown("token store unreadable").applyTo(scope.context());
      assertThat(scope.context().isDirty()).isTrue();
      assertThat(scope.context().dirtyBecause()).isEqualTo("token store unreadable");
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
    TokenStoreConfig defaults = TokenStoreConfig.ofDefaults();
    assertThat(defaults.commandTimeout()).isEqualTo(Duration.ofMillis(50));
    assertThat(defaults.timeToLive()).isEqualTo(Duration.ofHours(1));
    assertThat(defaults.dirtyTimeToLive()).isEqualTo(Duration.ofMinutes(10));
    assertThat(defaults.maxIntervals()).isEqualTo(128);
    assertThat(defaults.localTimeToLive()).isEqualTo(Duration.ofSeconds(1));
    assertThat(defaults.invalidationChannel()).isEqualTo("tidemark:scope:changed");
    assertThatThrownBy(() -> TokenStoreConfig.custom().invalidationChannel(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(defaults.toBuilder().commandTimeout(Duration.ofMillis(3)).build().commandTimeout())
        .isEqualTo(Duration.ofMillis(3));
    assertThatThrownBy(() -> TokenStoreConfig.custom().keyPrefix("a{"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TokenStoreConfig.custom().commandTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TokenStoreConfig.custom().maxIntervals(0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
