package io.tidemark.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenConfig;
import io.tidemark.token.TokenRejectedException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class TokenInspectorTests {

  private static final String GTIDS = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-42";

  private final TokenCodec codec = codec("k7", 'a');
  private final TokenInspector inspector = new TokenInspector(codec, "orders");
  private final Instant issued = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private final String token =
      codec.encode(ConsistencyToken.of("orders", GtidSet.parse(GTIDS), issued));

  private static TokenCodec codec(String keyId, char secret) {
    byte[] bytes = String.valueOf(secret).repeat(32).getBytes(StandardCharsets.US_ASCII);
    return new TokenCodec(
        TokenConfig.builder(KeyRing.builder().key(keyId, bytes).active(keyId).build()).build());
  }

  @Test
  void aHeaderValueIsDecodedByTheCodec() {
    var inspected = inspector.inspect(" orders=" + token + " ");

    assertThat(inspected)
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.rejected()).isNull();
              assertThat(t.cluster()).isEqualTo("orders");
              assertThat(t.keyId()).isEqualTo("k7");
              assertThat(t.issuedAt()).isEqualTo(issued);
              assertThat(t.gtids()).isEqualTo(GTIDS);
              assertThat(t.lost()).isEmpty();
            });
  }

  @Test
  void aBareTokenIsTakenAsTheServicesCluster() {
    assertThat(inspector.inspect(token))
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.rejected()).isNull();
              assertThat(t.gtids()).isEqualTo(GTIDS);
            });
  }

  @Test
  void aTokenOfAnotherSecretIsShownRejectedNotDecoded() {
    String forged =
        codec("k7", 'b').encode(ConsistencyToken.of("orders", GtidSet.parse(GTIDS), issued));

    assertThat(inspector.inspect("orders=" + forged))
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.rejected()).isEqualTo("BAD_SIGNATURE");
              assertThat(t.gtids()).isNull();
              assertThat(t.issuedAt()).isNull();
            });
  }

  @Test
  void eachClusterOfAHeaderIsShownOnItsOwn() {
    String payments = codec.encode(ConsistencyToken.of("payments", GtidSet.parse(GTIDS), issued));

    var inspected = inspector.inspect("orders=" + token + ", payments=" + payments);

    assertThat(inspected)
        .extracting(TokenInspector.Inspected::cluster)
        .containsExactly("orders", "payments");
    assertThat(inspected).allSatisfy(t -> assertThat(t.rejected()).isNull());
  }

  @Test
  void blankOrMalformedTextIsATypedError() {
    assertThatThrownBy(() -> inspector.inspect("  "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("paste");
    assertThatThrownBy(() -> inspector.inspect("orders=not a token"))
        .isInstanceOfSatisfying(
            TokenRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(TokenRejectedException.Check.MALFORMED));
  }
}
