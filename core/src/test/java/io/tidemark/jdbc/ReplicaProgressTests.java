package io.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import org.junit.jupiter.api.Test;

class ReplicaProgressTests {

  private static final String REPLICA = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String OTHER_REPLICA = "5c3a4b52-0f6d-11ef-8d3e-0242ac120003";
  private static final GtidSet A_1_5 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-5");
  private static final GtidSet A_3 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:3");
  private static final GtidSet A_1_9 = GtidSet.parse("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa:1-9");
  private static final GtidSet B_1_2 = GtidSet.parse("bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb:1-2");

  private final ReplicaProgress progress = new ReplicaProgress();

  @Test
  void whatANewConnectionSeesReplacesTheBoundLoweringItAfterARestore() {
    progress.advance(REPLICA, A_1_9);
    progress.advance(OTHER_REPLICA, A_1_9);

    progress.seen(REPLICA, A_1_5);

    assertThat(progress.contains(REPLICA, A_3)).isTrue();
    assertThat(progress.contains(REPLICA, A_1_9))
        .as("restored from a snapshot: the server has less than was known")
        .isFalse();
    assertThat(progress.contains(OTHER_REPLICA, A_1_9)).isTrue();
  }

  @Test
  void staysSmallHoweverManyScatteredTokensItReaches() {
    String uuid = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
    for (int gno = 1; gno <= 200_000; gno += 2) {
      progress.advance(REPLICA, GtidSet.parse(uuid + ":" + gno));
    }

    GtidSet last = GtidSet.parse(uuid + ":199999");
    assertThat(progress.contains(REPLICA, last)).isTrue();
    assertThat(progress.contains(REPLICA, GtidSet.parse(uuid + ":1"))).isFalse();
  }

  @Test
  void containsOnlyWhatWasReachedAfterAnAdvance() {
    assertThat(progress.contains(REPLICA, A_3)).isFalse();

    progress.advance(REPLICA, A_1_5);

    assertThat(progress.contains(REPLICA, A_1_5)).isTrue();
    assertThat(progress.contains(REPLICA, A_3)).isTrue();
    assertThat(progress.contains(REPLICA, A_1_9)).isFalse();
    assertThat(progress.contains(REPLICA, B_1_2)).isFalse();
  }

  @Test
  void advancesByUnionAndNeverGoesBack() {
    progress.advance(REPLICA, A_1_5);
    progress.advance(REPLICA, B_1_2);
    progress.advance(REPLICA, A_3);

    assertThat(progress.contains(REPLICA, A_1_5.union(B_1_2))).isTrue();
  }

  @Test
  void keepsEachServersProgressApart() {
    progress.advance(REPLICA, A_1_9);

    assertThat(progress.contains(OTHER_REPLICA, A_3)).isFalse();
    progress.advance(OTHER_REPLICA, A_3);
    assertThat(progress.contains(OTHER_REPLICA, A_3)).isTrue();
    assertThat(progress.contains(OTHER_REPLICA, A_1_5)).isFalse();
    assertThat(progress.contains(REPLICA, A_1_9)).isTrue();
  }
}
