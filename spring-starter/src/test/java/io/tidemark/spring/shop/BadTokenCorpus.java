package io.tidemark.spring.shop;

import static io.tidemark.token.BadTokens.codec;
import static io.tidemark.token.BadTokens.flipFirstMacCharacter;
import static io.tidemark.token.BadTokens.hundredThousandIntervals;
import static io.tidemark.token.BadTokens.ring;
import static io.tidemark.token.BadTokens.sign;
import static io.tidemark.token.BadTokens.tenThousandUuids;

import io.tidemark.token.BadTokens;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Every bad consistency token of the design's failure catalogue, as the shop (cluster {@code shop},
 * key {@code k1}, {@link ShopApplication#SECRET}) receives it, with what it must answer.
 *
 * <p>Made as the codec's corpus makes them ({@link BadTokens}): signed by a real codec with the
 * shop's secret, so only the one property that makes them bad is wrong. Each names a fresh random
 * source UUID ({@link Case#needle}): a text no server may ever see, since nothing of a token that
 * fails verification may reach MySQL.
 */
final class BadTokenCorpus {

  static final String CLUSTER = "shop";
  static final String KEY_ID = "k1";

  private BadTokenCorpus() {}

  /** What one request must be answered with: a status and, for problems, the reason code. */
  record Answer(int status, @Nullable String reason) {

    static Answer served(int status) {
      return new Answer(status, null);
    }

    /** Refused by the container before the application: no problem body to check. */
    static Answer refused(int status) {
      return new Answer(status, null);
    }

    static Answer problem(int status, String reason) {
      return new Answer(status, reason);
    }

    @Override
    public String toString() {
      return reason == null ? Integer.toString(status) : status + " " + reason;
    }
  }

  /** The source's state that entries which must verify are built against. */
  record Source(String uuid, long lastGno) {}

  /**
   * One entry: how to build the header value ({@code null}: no header at all), and the answers to a
   * read and a write in REJECT and in IGNORE mode. {@code needle} is a text that must never reach a
   * server, or {@code null} when the token verifies and may.
   */
  record Case(
      String name,
      Function<Source, @Nullable String> header,
      @Nullable String needle,
      Answer rejectRead,
      Answer rejectWrite,
      Answer ignoreRead,
      Answer ignoreWrite) {

    @Override
    public String toString() {
      return name;
    }
  }

  private static final Answer READ = Answer.served(200);
  private static final Answer WRITTEN = Answer.served(201);

  /** Rejected in REJECT mode with {@code reason}; dropped in IGNORE mode, the request served. */
  private static Case rejected(
      String name, String reason, @Nullable String needle, Function<Source, String> header) {
    Answer problem = Answer.problem(400, reason);
    return new Case(name, header::apply, needle, problem, problem, READ, WRITTEN);
  }

  /**
   * Well formed but not verifiable here (another secret or key, the clocks): its writes cannot be
   * known, so the request is served with its reads on the source, whatever the mode.
   */
  private static Case unverifiable(
      String name, @Nullable String needle, Function<Source, String> header) {
    return new Case(name, header::apply, needle, READ, WRITTEN, READ, WRITTEN);
  }

  /** Refused by the container for what the bytes are, whatever the mode. */
  private static Case refusedByContainer(
      String name, @Nullable String needle, Function<Source, String> header) {
    Answer refused = Answer.refused(400);
    return new Case(name, header::apply, needle, refused, refused, refused, refused);
  }

  private static final String MEGABYTE = "oversized 1 MB header";
  private static final String UUIDS = "10 000 UUIDs";
  private static final String INTERVALS = "100 000 intervals";

  /** The whole corpus. */
  static List<Case> cases() {
    String malformed = uuid().replace("-", "");
    String wrongMac = uuid();
    String unknownKey = uuid();
    String otherCluster = uuid();
    String expired = uuid();
    String future = uuid();
    String unknownSource = uuid();
    String crlf = uuid().replace("-", "");
    String quoted = uuid();
    String manyUuids = uuid();
    String bareCr = uuid().replace("-", "");
    String folded = uuid().replace("-", "");
    return List.of(
        new Case("missing", s -> null, null, READ, WRITTEN, READ, WRITTEN),
        new Case("empty", s -> "", null, READ, WRITTEN, READ, WRITTEN),
        rejected(
            "malformed",
            "MALFORMED",
            malformed,
            s -> entry("v1." + KEY_ID + "." + malformed + ".not-a-signature")),
        unverifiable(
            "wrong MAC",
            wrongMac,
            s -> entry(flipFirstMacCharacter(sign(shop(), CLUSTER, wrongMac + ":1-3")))),
        unverifiable(
            "unknown key id",
            unknownKey,
            s ->
                entry(
                    sign(
                        codec(ring("k9", "another-secret-of-at-least-32-chars!!"), Instant.now()),
                        CLUSTER,
                        unknownKey + ":1-3"))),
        rejected(
            "other cluster",
            "WRONG_CLUSTER",
            otherCluster,
            s -> entry(sign(shop(), "billing", otherCluster + ":1-3"))),
        unverifiable(
            "expired",
            expired,
            s ->
                entry(
                    sign(
                        codec(shopRing(), Instant.now().minus(Duration.ofDays(3))),
                        CLUSTER,
                        expired + ":1-3"))),
        unverifiable(
            "far future",
            future,
            s ->
                entry(
                    sign(
                        codec(shopRing(), Instant.now().plus(Duration.ofDays(3650))),
                        CLUSTER,
                        future + ":1-3"))),
        rejected(MEGABYTE, "TOO_LARGE", null, s -> megabyteHeader()),
        rejected(
            UUIDS,
            "TOO_LARGE",
            manyUuids,
            s -> entry(sign(unlimited(), CLUSTER, tenThousandUuids(manyUuids)))),
        rejected(
            INTERVALS,
            "TOO_LARGE",
            null,
            s -> entry(sign(unlimited(), CLUSTER, hundredThousandIntervals(s.uuid())))),
        // Verifies: refused by the reader before any wait, since no server could ever hold it.
        new Case(
            "unknown source UUID",
            s -> entry(sign(shop(), CLUSTER, unknownSource + ":1-3")),
            unknownSource,
            Answer.problem(400, "TOKEN_REJECTED"),
            WRITTEN,
            Answer.problem(400, "TOKEN_REJECTED"),
            WRITTEN),
        // Verifies: waited for on the replica, then refused by the source that lacks it.
        new Case(
            "GNO ahead of the source",
            s -> entry(sign(shop(), CLUSTER, s.uuid() + ":1-" + (s.lastGno() + 1_000_000))),
            null,
            Answer.problem(503, "TOKEN_NOT_ON_SOURCE"),
            WRITTEN,
            Answer.problem(503, "TOKEN_NOT_ON_SOURCE"),
            WRITTEN),
        // On the wire the CR/LF ends the field: the filter sees the text before it.
        rejected(
            "CR/LF in the value", "MALFORMED", crlf, s -> entry(crlf + "\r\nX-Injected: " + crlf)),
        refusedByContainer("bare CR in the value", bareCr, s -> entry(bareCr + "\r" + bareCr)),
        // Tomcat joins an obsolete line fold into the value, which is then not token text.
        rejected(
            "folded onto a second line",
            "MALFORMED",
            folded,
            s -> entry(folded + "\r\n " + folded)),
        rejected(
            "quotes around a valid token",
            "MALFORMED",
            quoted,
            s -> entry("\"" + sign(shop(), CLUSTER, quoted + ":1-3") + "\"")),
        rejected(
            "SQL in the value",
            "MALFORMED",
            "DROP TABLE orders",
            s -> entry("' OR 1=1; DROP TABLE orders; --")));
  }

  /** The entries whose header is over a megabyte or close to it. */
  static boolean isOversized(Case c) {
    return List.of(MEGABYTE, UUIDS, INTERVALS).contains(c.name());
  }

  static String entry(String token) {
    return BadTokens.entry(CLUSTER, token);
  }

  static String megabyteHeader() {
    return BadTokens.megabyteHeader(CLUSTER, KEY_ID);
  }

  static KeyRing shopRing() {
    return ring(KEY_ID, ShopApplication.SECRET);
  }

  static TokenCodec shop() {
    return codec(shopRing(), Instant.now());
  }

  /** Signs anything: its limits are far above the verifier's. */
  static TokenCodec unlimited() {
    return BadTokens.unlimited(shopRing(), Instant.now());
  }

  private static String uuid() {
    return UUID.randomUUID().toString();
  }
}
