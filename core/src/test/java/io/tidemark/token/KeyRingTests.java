package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
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

  @Test
  void findsKeysByTheIdInsideATokenText() {
    KeyRing ring = KeyRing.builder().key("k1", SECRET).key("k12", SECRET).active("k1").build();
    String text = "v1.k12.payload";

    assertThat(ring.key(text, 3, 6)).isNotNull().extracting(KeyRing.Key::id).isEqualTo("k12");
    assertThat(ring.key(text, 3, 5)).isNotNull().extracting(KeyRing.Key::id).isEqualTo("k1");
    assertThat(ring.key(text, 2, 5)).isNull();
    assertThat(ring.key(text, 3, 7)).isNull();
  }

  @Test
  void signsAsTheJdkMacDoesFromManyThreadsAtOnce() throws Exception {
    Mac jdk = Mac.getInstance("HmacSHA256");
    jdk.init(new SecretKeySpec(SECRET, "HmacSHA256"));
    KeyRing.Key key = KeyRing.builder().key("k1", SECRET).active("k1").build().activeKey();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<List<String>>> wrong = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        wrong.add(threads.submit(() -> signEach(key, (Mac) jdk.clone(), seed)));
      }
      for (Future<List<String>> mismatches : wrong) {
        assertThat(mismatches.get()).isEmpty();
      }
    } finally {
      threads.shutdown();
    }
  }

  /** Signs random inputs of random lengths; the ones whose MAC differs from the JDK's. */
  private static List<String> signEach(KeyRing.Key key, Mac jdk, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> mismatches = new ArrayList<>();
    byte[] input = new byte[300];
    byte[] mac = new byte[KeyRing.MAC_LENGTH];
    for (int i = 0; i < 20_000; i++) {
      random.nextBytes(input);
      int length = random.nextInt(input.length + 1);
      key.sign(input, length, mac);
      jdk.update(input, 0, length);
      if (!Arrays.equals(mac, jdk.doFinal())) {
        mismatches.add("seed " + seed + " input " + i);
      }
    }
    return mismatches;
  }
}
