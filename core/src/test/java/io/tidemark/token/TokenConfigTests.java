package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenConfigTests {

  private final KeyRing ring =
      KeyRing.builder().key("k1", TokenCodecTests.secret('c')).active("k1").build();

  @Test
  void startsFromTheDocumentedDefaults() {
    TokenConfig config = TokenConfig.builder(ring).build();

    assertThat(config.keyRing()).isSameAs(ring);
    assertThat(config.maxTokenLength()).isEqualTo(TokenConfig.DEFAULT_MAX_TOKEN_LENGTH);
    assertThat(config.maxHeaderLength()).isEqualTo(TokenConfig.DEFAULT_MAX_HEADER_LENGTH);
    assertThat(config.maxUuids()).isEqualTo(TokenConfig.DEFAULT_MAX_UUIDS);
    assertThat(config.maxIntervals()).isEqualTo(TokenConfig.DEFAULT_MAX_INTERVALS);
    assertThat(config.timeToLive()).isEqualTo(TokenConfig.DEFAULT_TIME_TO_LIVE);
    assertThat(config.clockSkew()).isEqualTo(TokenConfig.DEFAULT_CLOCK_SKEW);
  }

  @Test
  void rejectsSettingsThatCannotWork() {
    TokenConfig.Builder builder = TokenConfig.builder(ring);

    assertThatThrownBy(() -> builder.maxTokenLength(127))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxTokenLength");
    assertThatThrownBy(() -> builder.maxUuids(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.timeToLive(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.clockSkew(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
