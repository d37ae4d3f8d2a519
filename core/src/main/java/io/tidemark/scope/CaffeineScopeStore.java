package io.tidemark.scope;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tidemark.GtidSet;
import io.tidemark.Ticker;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ScopeStore} in this process's memory, through Caffeine: for a single instance, or for
 * tests. Merges run inside {@code compute}, which Caffeine runs atomically per key, so concurrent
 * merges lose nothing. Nothing is evicted for size: a scope dropped early would make its reads
 * stale, so memory is bounded by the time to live and the interval limit instead.
 */
final class CaffeineScopeStore implements ScopeStore {

  /** A scope's state; absent parts are expired, judged against the ticker on read. */
  private record Entry(GtidSet gtids, long gtidsUntil, @Nullable String dirty, long dirtyUntil) {}

  private final Cache<ScopeKey, Entry> scopes;
  private final ScopeStoreConfig config;
  private final Ticker ticker;
  private final StoreCounters counters = new StoreCounters();

  private CaffeineScopeStore(ScopeStoreConfig config) {
    this.config = config;
    this.ticker = config.ticker();
    this.scopes =
        Caffeine.newBuilder()
            .ticker(ticker::read)
            .expireAfterWrite(config.longestTimeToLive())
            .build();
  }

  /** A store with {@code config}; only its time to live, interval limit and ticker apply. */
  static CaffeineScopeStore create(ScopeStoreConfig config) {
    return new CaffeineScopeStore(Objects.requireNonNull(config, "config"));
  }

  @Override
  public ScopeState get(ScopeKey scope) {
    Entry entry = scopes.getIfPresent(scope);
    if (entry == null) {
      return counters.read(ScopeState.EMPTY);
    }
    long now = ticker.read();
    GtidSet gtids = now - entry.gtidsUntil() < 0 ? entry.gtids() : GtidSet.EMPTY;
    String dirty = entry.dirty();
    return counters.read(
        dirty != null && now - entry.dirtyUntil() < 0
            ? ScopeState.dirty(gtids, dirty)
            : ScopeState.known(gtids));
  }

  @Override
  public boolean merge(ScopeKey scope, GtidSet gtids) {
    Objects.requireNonNull(scope, "scope");
    if (gtids.isEmpty()) {
      return counters.wrote(true);
    }
    return update(
        scope,
        (old, now) -> {
          GtidSet merged =
              old == null || now - old.gtidsUntil() >= 0 ? gtids : old.gtids().union(gtids);
          long gtidsUntil = now + config.timeToLive().toNanos();
          String dirty = old == null ? null : old.dirty();
          long dirtyUntil = old == null ? now : old.dirtyUntil();
          if (merged.intervalCount() > config.maxIntervals()) {
            // Same rule as in Redis: the set goes, the scope stays on the source as long.
            return new Entry(
                GtidSet.EMPTY,
                now,
                "more than " + config.maxIntervals() + " GTID intervals",
                dirtyUntil - gtidsUntil > 0 ? dirtyUntil : gtidsUntil);
          }
          return new Entry(merged, gtidsUntil, dirty, dirtyUntil);
        });
  }

  @Override
  public boolean markDirty(ScopeKey scope, String because) {
    Objects.requireNonNull(because, "because");
    return update(
        scope,
        (old, now) -> {
          long dirtyUntil = now + config.dirtyTimeToLive().toNanos();
          if (old != null && old.dirty() != null && old.dirtyUntil() - dirtyUntil > 0) {
            // A mark never ends one that lasts longer, such as an overflow's.
            dirtyUntil = old.dirtyUntil();
          }
          return old == null
              ? new Entry(GtidSet.EMPTY, now, because, dirtyUntil)
              : new Entry(old.gtids(), old.gtidsUntil(), because, dirtyUntil);
        });
  }

  /**
   * Replaces {@code scope}'s entry by {@code change} of it, inside Caffeine's {@code compute} so
   * that concurrent writes of one scope run one after the other, each seeing the other's entry.
   */
  private boolean update(ScopeKey scope, Change change) {
    scopes.asMap().compute(scope, (key, old) -> change.apply(old, ticker.read()));
    return counters.wrote(true);
  }

  /** A write's new entry for a scope, from its entry ({@code null}: none) at {@code now}. */
  @FunctionalInterface
  private interface Change {
    Entry apply(@Nullable Entry old, long now);
  }

  @Override
  public Stats stats() {
    return counters.snapshot();
  }

  @Override
  public String toString() {
    return "CaffeineScopeStore(" + scopes.estimatedSize() + " scopes)";
  }
}
