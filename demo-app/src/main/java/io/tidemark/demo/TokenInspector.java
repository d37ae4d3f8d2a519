package io.tidemark.demo;

import io.tidemark.token.ConsistencyHeader;
import io.tidemark.token.ConsistencyToken;
import io.tidemark.token.TokenCodec;
import io.tidemark.token.TokenRejectedException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Shows what a {@code Consistency-Token} holds, as the service's own codec reads it: only a token
 * that verifies (signature, key id, cluster, age) is decoded; any other is shown with the check it
 * failed.
 */
final class TokenInspector {

  /**
   * One token of the header.
   *
   * @param cluster the cluster it is for
   * @param rejected the check it failed, or {@code null} when it verified
   * @param detail what the codec said of it
   * @param keyId the id of the key it is signed with, when it verified
   * @param issuedAt when it was issued, when it verified
   * @param gtids the transactions a read with it must see, when it verified
   * @param lost transactions it names that the source lost in a failover, when it verified
   * @param requiresSource whether reads with it go to the source only
   */
  record Inspected(
      String cluster,
      @Nullable String rejected,
      String detail,
      @Nullable String keyId,
      @Nullable Instant issuedAt,
      @Nullable String gtids,
      @Nullable String lost,
      boolean requiresSource) {}

  private final TokenCodec codec;
  private final String cluster;

  TokenInspector(TokenCodec codec, String cluster) {
    this.codec = codec;
    this.cluster = cluster;
  }

  /**
   * Inspects a header value ({@code cluster=token, ...}) or one bare token of this service's
   * cluster.
   *
   * @throws IllegalArgumentException for a blank text
   * @throws TokenRejectedException for a header that is malformed or too long
   */
  List<Inspected> inspect(String text) {
    String value = text.strip();
    if (value.isEmpty()) {
      throw new IllegalArgumentException("paste a Consistency-Token header value or a token");
    }
    ConsistencyHeader header =
        codec.parseHeader(value.indexOf('=') < 0 ? cluster + "=" + value : value);
    List<Inspected> inspected = new ArrayList<>();
    for (String name : header.clusters()) {
      for (String token : header.tokens(name)) {
        inspected.add(inspect(name, token));
      }
    }
    return inspected;
  }

  private Inspected inspect(String name, String token) {
    try {
      ConsistencyToken verified = codec.verify(token, name);
      return new Inspected(
          name,
          null,
          "verified",
          token.split("\\.")[1],
          verified.issuedAt(),
          verified.gtids().toSingleLineString(),
          verified.lost().toSingleLineString(),
          verified.requiresSource());
    } catch (TokenRejectedException e) {
      return new Inspected(name, e.reason().name(), e.getMessage(), null, null, null, null, false);
    }
  }
}
