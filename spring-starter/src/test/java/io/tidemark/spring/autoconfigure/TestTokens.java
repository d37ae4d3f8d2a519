package io.tidemark.spring.autoconfigure;

import io.tidemark.GtidSet;
import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenExchange;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;

/** Tokens for the web tests, signed as an application with {@link #properties()} signs them. */
public final class TestTokens {

  public static final String SECRET = "web-tests-secret-0123456789abcdef-0123";
  public static final String OTHER_SECRET = "another-secret-that-nobody-here-uses-42";
  public static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  public static final String B = "4f22fa47-71ca-11e1-9e33-c80aa9429562";

  private TestTokens() {}

  /** Properties of an application in cluster {@code default} signing with {@link #SECRET}. */
  public static TidemarkProperties properties() {
    return properties(SECRET);
  }

  public static TidemarkProperties properties(String secret) {
    TidemarkProperties properties = new TidemarkProperties();
    properties.getToken().setSecret(secret);
    return properties;
  }

  public static TokenCodec codec() {
    return codec(SECRET);
  }

  public static TokenCodec codec(String secret) {
    return codec(properties(secret));
  }

  /** The codec an application with {@code properties} signs with. */
  public static TokenCodec codec(TidemarkProperties properties) {
    return new TokenCodec(CoreConfigs.tokenConfig(properties, InstantSource.system()));
  }

  public static GtidSet gtids(String text) {
    return GtidSet.parse(text);
  }

  /**
   * A header value holding a token for {@code gtids} in {@code cluster}, signed with the secret.
   */
  public static String header(String cluster, String gtids) {
    return header(codec(), cluster, gtids);
  }

  public static String header(TokenCodec codec, String cluster, String gtids) {
    return codec.withToken(ConsistencyHeader.EMPTY, codec.issue(cluster, gtids(gtids))).toString();
  }

  /**
   * The token exchange of an application in cluster {@code default} signing with {@link #SECRET},
   * its tokens in {@code header}; it has no source to cover a dirty context with.
   */
  public static TokenExchange exchange(String header, Duration coverTimeout) {
    return new TokenExchange(
        codec(),
        "default",
        header,
        coverTimeout,
        timeout -> {
          throw new SQLException("no source in this test");
        });
  }

  /** The GTIDs of this cluster's tokens in a response header value. */
  public static GtidSet verified(String headerValue) {
    TokenCodec codec = codec();
    return codec
        .verify(codec.parseHeader(headerValue), "default")
        .orElseThrow(() -> new AssertionError("no token of cluster default in " + headerValue))
        .gtids();
  }
}
