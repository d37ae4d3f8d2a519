package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyRingTests {

  private static final byte[] SECRET = TokenCodecTests.secret('s');

  @Test
  void rejectsSecretsShorterThanThirtyTwoBytes() {
    assertThatThrownBy(() -> KeyRing.builder().key("k1", new byte[31]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("31 bytes")
        .hasMessageContaining("at least 32");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "k.1", "k 1", "k=1", "a-very-long-key-id-of-thirty-three"})
  void rejectsKeyIdsThatCannotTravelInAToken(String id) {
    assertThatThrownBy(() -> KeyRing.builder().key(id, SECRET))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsAnActiveKeyThatWasNotAdded() {
    KeyRing.Builder builder = KeyRing.builder().key("k1", SECRET);

    assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.active("k2").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k2");
  }

  @Test
  void rejectsAKeyIdAddedTwice() {
    KeyRing.Builder builder = KeyRing.builder().key("k1", SECRET);

    assertThatThrownBy(() -> builder.key("k1", SECRET))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesKeyIdsButNeverSecrets() {
    KeyRing ring = KeyRing.builder().key("old", SECRET).key("new", SECRET).active("new").build();

    assertThat(ring.activeKeyId()).isEqualTo("new");
    assertThat(ring.keyIds()).containsExactly("old", "new");
    assertThat(ring.toString()).contains("old", "new").doesNotContain("sss");
  }

  @Test
  void keepsItsOwnCopyOfTheSecret() {
    byte[] secret = SECRET.clone();
    KeyRing ring = KeyRing.builder().key("k1", secret).active("k1").build();
    TokenCodec codec = new TokenCodec(TokenConfig.builder(ring).build());
    String encoded = codec.encode(codec.issue("orders", GtidSet.EMPTY));

    secret[0] ^= 1;

    assertThat(codec.verify(encoded, "orders").cluster()).isEqualTo("orders");
  }
}
