package io.tidemark.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.GtidSet;
import io.tidemark.MutableClock;
import io.tidemark.RandomGtids;
import io.tidemark.token.TokenRejectedException.Check;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsistencyHeaderTests {

  private static final String A = RandomGtids.UUIDS[0];
  private static final String B = RandomGtids.UUIDS[1];

  private final MutableClock clock = new MutableClock(Instant.parse("2025-11-29T10:00:00Z"));

  /** Service A reads the orders database; service B, with its own keys, the payments database. */
  private final TokenCodec ordersService = codec("a1", 'a');

  private final TokenCodec paymentsService = codec("b1", 'b');

  private TokenCodec codec(String keyId, char fill) {
    KeyRing ring = KeyRing.builder().key(keyId, TokenCodecTests.secret(fill)).active(keyId).build();
    return new TokenCodec(TokenConfig.builder(ring).clock(clock).build());
  }

  @Test
  void verifiesTheClustersItKnowsAndForwardsTheOthersUntouched() {
    String payments =
        paymentsService.encode(paymentsService.issue("payments", GtidSet.parse(B + ":1-9")));
    String orders = ordersService.encode(ordersService.issue("orders", GtidSet.parse(A + ":1-5")));
    ConsistencyHeader incoming =
        ordersService.parseHeader("payments=" + payments + " , orders=" + orders);

    ConsistencyToken read = ordersService.verify(incoming, "orders").orElseThrow();
    ConsistencyToken afterWrite =
        read.merge(ordersService.issue("orders", GtidSet.parse(A + ":6-7")));
    ConsistencyHeader outgoing = ordersService.withToken(incoming, afterWrite);

    assertThat(outgoing.clusters()).containsExactly("orders", "payments");
    assertThat(outgoing.tokens("payments")).containsExactly(payments);
    assertThat(ordersService.verify(outgoing, "orders").orElseThrow().gtids())
        .hasToString(A + ":1-7");
    ConsistencyHeader backAtPayments = paymentsService.parseHeader(outgoing.toString());
    assertThat(paymentsService.verify(backAtPayments, "payments").orElseThrow().gtids())
        .hasToString(B + ":1-9");
  }

  @Test
  void mergesEveryTokenOfAClusterThatAppearsTwice() {
    String first = ordersService.encode(ordersService.issue("orders", GtidSet.parse(A + ":1-5")));
    String second = ordersService.encode(ordersService.issue("orders", GtidSet.parse(A + ":9")));

    ConsistencyHeader header =
        ordersService.parseHeader("orders=" + first + ",orders=" + second + ",orders=" + first);

    assertThat(header.tokens("orders")).containsExactly(first, second);
    assertThat(ordersService.verify(header, "orders").orElseThrow().gtids())
        .hasToString(A + ":1-5:9");
  }

  @Test
  void findsNothingForAClusterTheHeaderDoesNotHold() {
    ConsistencyHeader header = ordersService.parseHeader("payments=v1.b1.AAAA.BBBB");

    assertThat(ordersService.verify(header, "orders")).isEmpty();
    assertThat(header.tokens("orders")).isEmpty();
  }

  @Test
  void rejectsTheWholeHeaderWhenOneTokenOfTheClusterFails() {
    String good = ordersService.encode(ordersService.issue("orders", GtidSet.parse(A + ":1")));
    String forged =
        paymentsService.encode(paymentsService.issue("orders", GtidSet.parse(A + ":2")));
    ConsistencyHeader header = ordersService.parseHeader("orders=" + good + ", orders=" + forged);

    assertThatThrownBy(() -> ordersService.verify(header, "orders"))
        .isInstanceOfSatisfying(
            TokenRejectedException.class,
            e -> assertThat(e.reason()).isEqualTo(Check.UNKNOWN_KEY_ID));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", " , ,\t,"})
  void readsAnAbsentOrEmptyHeaderAsNoTokens(String value) {
    assertThat(ordersService.parseHeader(value)).isEqualTo(ConsistencyHeader.EMPTY);
    assertThat(ordersService.parseHeader(null).isEmpty()).isTrue();
  }

  @Test
  void writesEntriesSortedByClusterAndReadsItsOwnOutput() {
    ConsistencyHeader header = ordersService.parseHeader("zeta=v1.k.AAAA.BB,\talpha=v1.k.CCCC.DD");

    assertThat(header).hasToString("alpha=v1.k.CCCC.DD, zeta=v1.k.AAAA.BB");
    assertThat(ordersService.parseHeader(header.toString())).isEqualTo(header);
  }

  @Test
  void rejectsAMegabyteHeaderByItsLengthAlone() {
    String huge = "orders=" + "A".repeat(1 << 20);

    assertThatThrownBy(() -> ordersService.parseHeader(huge))
        .isInstanceOfSatisfying(
            TokenRejectedException.class, e -> assertThat(e.reason()).isEqualTo(Check.TOO_LARGE));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "orders",
        "orders=",
        "=v1.a.b.c",
        "orders=v1.a.b.c\r\nSet-Cookie: x=y",
        "orders=\"v1.a.b.c\"",
        "orders=v1.a.b.c; payments=v1.a.b.c",
        "orders=v1.a.b.c'; DROP TABLE orders; --",
        "or ders=v1.a.b.c",
        "orders=v1.a=b.c"
      })
  void rejectsMalformedHeadersIncludingLineBreaksQuotesAndSql(String value) {
    assertThatThrownBy(() -> ordersService.parseHeader(value))
        .isInstanceOfSatisfying(
            TokenRejectedException.class, e -> assertThat(e.reason()).isEqualTo(Check.MALFORMED));
  }

  @Test
  void refusesToWriteAHeaderLongerThanTheLimit() {
    StringBuilder value = new StringBuilder();
    for (int i = 0; value.length() < TokenConfig.DEFAULT_MAX_HEADER_LENGTH - 100; i++) {
      value.append("cluster").append(i).append("=v1.k.").append("A".repeat(60)).append(".B, ");
    }
    ConsistencyHeader nearlyFull = ordersService.parseHeader(value.toString());
    ConsistencyToken token = ordersService.issue("orders", GtidSet.parse(A + ":1-5," + B + ":3"));

    assertThatThrownBy(() -> ordersService.withToken(nearlyFull, token))
        .isInstanceOfSatisfying(
            TokenOverflowException.class,
            e -> assertThat(e.reason()).isEqualTo(TokenOverflowException.Limit.TOO_LARGE));
  }

  @Test
  void refusesToAddAnInvalidEntry() {
    assertThatThrownBy(() -> ConsistencyHeader.EMPTY.with("orders", "not a token"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ConsistencyHeader.EMPTY.with("or,ders", "v1.a.b.c"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
