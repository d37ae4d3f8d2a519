package io.tidemark.spring.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.GtidSet;
import io.tidemark.dialect.WalPosition;
import org.junit.jupiter.api.Test;

/** What a scope takes of a unit of work's writes. */
class ScopedWritesInterceptorTests {

  @Test
  void aWalPositionIsTakenWholeSoThatEveryWriteKeepsTheScopeOneInterval() {
    GtidSet before = new WalPosition(7, 1, 0x3000_0000L).toGtidSet();
    GtidSet after = new WalPosition(7, 1, 0x3000_0400L).toGtidSet();

    GtidSet written = ScopedWritesInterceptor.written(after, before);

    assertThat(written).isEqualTo(after);
    assertThat(written.intervalCount()).isEqualTo(1);
  }

  @Test
  void gtidsAreTakenAsTheOnesWrittenSinceBefore() {
    String uuid = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
    GtidSet before = GtidSet.parse(uuid + ":1-5");
    GtidSet after = GtidSet.parse(uuid + ":1-7");

    assertThat(ScopedWritesInterceptor.written(after, before))
        .isEqualTo(GtidSet.parse(uuid + ":6-7"));
  }
}
