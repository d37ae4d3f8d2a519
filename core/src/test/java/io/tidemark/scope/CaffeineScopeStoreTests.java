package io.tidemark.scope;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.FakeTicker;
import io.tidemark.GtidSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CaffeineScopeStoreTests extends ScopeStoreContract {

  private final FakeTicker ticker = new FakeTicker();
  private ScopeStore only;

  @Override
  ScopeStore store(ScopeStoreConfig config) {
    only = CaffeineScopeStore.create(config.toBuilder().ticker(ticker).build());
    return only;
  }

  @Override
  ScopeStore secondStore(ScopeStoreConfig config) {
    // One process, one store: the "other instance" is the same one.
    return only == null ? store(config) : only;
  }

  @Override
  void elapse(Duration time) {
    ticker.advance(time);
  }

  @Test
  void aScopeExpiresAfterItsLastMergeAndDirtyOnItsOwnClock() {
    ScopeStore store =
        store(
            config().toBuilder()
                .timeToLive(Duration.ofMinutes(10))
                .dirtyTimeToLive(Duration.ofMinutes(1))
                .build());
    ScopeKey scope = freshScope();
    store.merge(scope, GtidSet.parse(A + ":1"));
    store.markDirty(scope, "capture failed");
    ticker.advance(Duration.ofMinutes(5));
    store.merge(scope, GtidSet.parse(A + ":2"));
    assertThat(store.get(scope)).isEqualTo(ScopeState.known(GtidSet.parse(A + ":1-2")));

    ticker.advance(Duration.ofMinutes(9));
    assertThat(store.get(scope).gtids())
        .as("renewed by the merge")
        .isEqualTo(GtidSet.parse(A + ":1-2"));
    ticker.advance(Duration.ofMinutes(2));
    assertThat(store.get(scope)).isEqualTo(ScopeState.EMPTY);
  }

  @Test
  void countsReadsAndWrites() {
    ScopeStore store = store(config());
    ScopeKey scope = freshScope();
    store.merge(scope, GtidSet.parse(A + ":1"));
    store.markDirty(scope, "x");
    store.get(scope);
    assertThat(store.stats()).isEqualTo(new ScopeStore.Stats(1, 0, 2, 0));
  }
}
