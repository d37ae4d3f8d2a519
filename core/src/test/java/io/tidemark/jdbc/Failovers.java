package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.GtidSet;
import io.tidemark.ReadPolicy;
import io.tidemark.Reason;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/** What a token of writes a failover lost must be told, the same on every database. */
final class Failovers {

  private Failovers() {}

  /**
   * Under either policy a read with the token of the {@code lost} writes is refused as {@code
   * TOKEN_NOT_ON_SOURCE}, never answered with the surviving rows; {@code namesTheLost} checks what
   * the refusal says is lost, which leaves out what was {@code kept}.
   */
  static void assertATokenOfTheLostWritesIsNotOnTheSource(
      Function<ReadPolicy, ConsistentReader> reader,
      GtidSet lost,
      GtidSet kept,
      SqlFunction<?> read,
      Consumer<GtidSet> namesTheLost) {
    for (ReadPolicy policy : List.of(ReadPolicy.FAIL, ReadPolicy.FALLBACK_TO_SOURCE)) {
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        binding.context().merge(lost);

        assertThatThrownBy(
                () ->
                    reader
                        .apply(policy)
                        .read(ReadOptions.defaults().withTimeout(Duration.ofSeconds(2)), read))
            .as(policy.name())
            .isInstanceOfSatisfying(
                ConsistentReadException.class,
                e -> {
                  assertThat(e.reason()).isEqualTo(Reason.TOKEN_NOT_ON_SOURCE);
                  namesTheLost.accept(e.lost());
                  assertThat(e.lost().containsAll(kept)).isFalse();
                });
      }
    }
  }
}
