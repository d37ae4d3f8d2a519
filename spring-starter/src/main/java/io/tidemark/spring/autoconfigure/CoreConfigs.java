package io.tidemark.spring.autoconfigure;

import io.tidemark.jdbc.ConsistentReader;
import io.tidemark.jdbc.ReadOptions;
import io.tidemark.scope.ScopeStoreConfig;
import io.tidemark.token.KeyRing;
import io.tidemark.token.TokenConfig;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** Where {@link TidemarkProperties} become the core's configuration objects: in this class only. */
final class CoreConfigs {

  private static final Log log = LogFactory.getLog(CoreConfigs.class);

  private CoreConfigs() {}

  /**
   * The token settings, stamped and aged by {@code clock}; without a secret, a random one of this
   * process, which only a single instance without a shared scope store may use.
   */
  static TokenConfig tokenConfig(TidemarkProperties properties, InstantSource clock) {
    TidemarkProperties.Token token = properties.getToken();
    KeyRing.Builder keys = KeyRing.builder();
    String secret = token.getSecret();
    if (secret == null || secret.isEmpty()) {
      if (properties.getScope().getStore() == TidemarkProperties.ScopeStoreKind.REDIS) {
        throw new TidemarkStartupException(
            "tidemark.token.secret is not set, but scopes are shared through Redis: tokens signed"
                + " by one instance would not verify on the others.",
            "Set tidemark.token.secret to the same random string of at least "
                + KeyRing.MIN_SECRET_LENGTH
                + " characters on every instance (e.g. from an environment variable).");
      }
      log.warn(
          "tidemark.token.secret is not set: signing with a random secret of this process; tokens"
              + " will not verify on other instances or after a restart");
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      secret = Base64.getEncoder().encodeToString(random);
    } else {
      TokenSecrets.check("tidemark.token.secret", secret);
    }
    for (Map.Entry<String, String> previous : token.getPreviousSecrets().entrySet()) {
      TokenSecrets.check(
          "tidemark.token.previous-secrets." + previous.getKey(), previous.getValue());
    }
    try {
      keys.key(token.getKeyId(), secret.getBytes(StandardCharsets.UTF_8));
      for (Map.Entry<String, String> previous : token.getPreviousSecrets().entrySet()) {
        keys.key(previous.getKey(), previous.getValue().getBytes(StandardCharsets.UTF_8));
      }
      return TokenConfig.builder(keys.active(token.getKeyId()).build())
          .timeToLive(token.getTimeToLive())
          .clockSkew(token.getClockSkew())
          .clock(clock)
          .build();
    } catch (IllegalArgumentException e) {
      throw new TidemarkStartupException(
          "The tidemark.token settings are invalid: " + e.getMessage(),
          "Use key ids of letters, digits, '-' or '_' (tidemark.token.key-id and the keys of"
              + " tidemark.token.previous-secrets).");
    }
  }

  /** The scope store's settings. */
  static ScopeStoreConfig storeConfig(TidemarkProperties properties) {
    TidemarkProperties.Scope scope = properties.getScope();
    return ScopeStoreConfig.builder()
        .timeToLive(scope.getTimeToLive())
        .commandTimeout(scope.getCommandTimeout())
        .build();
  }

  /** Options of reads whose annotation names none. */
  static ReadOptions readDefaults(TidemarkProperties properties) {
    return ReadOptions.defaults()
        .withTimeout(properties.getRead().getTimeout())
        .withPolicy(properties.getRead().getPolicy())
        .withMonotonic(properties.getRead().isMonotonic())
        .withLevel(properties.getRead().getLevel())
        .withMaxStaleness(properties.getRead().getMaxStaleness());
  }

  /** The reader's limits. */
  static ConsistentReader.Builder readerLimits(
      ConsistentReader.Builder builder, TidemarkProperties properties) {
    TidemarkProperties.Read read = properties.getRead();
    return builder
        .defaults(readDefaults(properties))
        .maxReplicaReads(read.getMaxReplicaReads())
        .maxSourceFallbacks(read.getMaxSourceFallbacks())
        .queryReserve(read.getQueryReserve())
        .fallbackReserve(read.getFallbackReserve());
  }
}
