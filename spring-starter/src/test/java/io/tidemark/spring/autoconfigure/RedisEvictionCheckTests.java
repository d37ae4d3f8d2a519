package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.spring.autoconfigure.RedisEvictionCheck.Settings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the start-up check of the scope store's Redis says for each answer it can get. */
class RedisEvictionCheckTests {

  private static final Duration HOUR = Duration.ofHours(1);

  private static List<String> findings(Settings... nodes) {
    return RedisEvictionCheck.findings("redis://cache:6379", List.of(nodes), HOUR);
  }

  @Test
  void aRedisThatCannotEvictIsNotMentioned() {
    assertThat(findings(new Settings("a", "noeviction", "104857600", null, null))).isEmpty();
    assertThat(findings(new Settings("a", "allkeys-lru", "0", null, null)))
        .as("no maxmemory, nothing evicted")
        .isEmpty();
  }

  @Test
  void anEvictingPolicyIsOneLineNamingItAndWhatToSet() {
    List<String> lines =
        findings(
            new Settings("n1", "volatile-lru", "104857600", null, null),
            new Settings("n2", "volatile-lru", "104857600", null, null),
            new Settings("n3", "noeviction", "104857600", null, null));
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .contains("redis://cache:6379")
        .contains("maxmemory-policy volatile-lru with maxmemory 104857600 on n1, n2")
        .doesNotContain("n3")
        .contains("for 1 h")
        .contains("volatile-* policies evict them too")
        .contains("Set maxmemory-policy noeviction");
  }

  @Test
  void aStandaloneRedisIsNamedOnceByWhereItIs() {
    assertThat(findings(new Settings("", "allkeys-lru", "1000", null, null)))
        .singleElement()
        .asString()
        .contains(
            "at redis://cache:6379 may evict scopes (maxmemory-policy allkeys-lru with"
                + " maxmemory 1000)");
    assertThat(findings(new Settings("", null, null, "NOPERM config", "NOPERM info")))
        .singleElement()
        .asString()
        .contains("(CONFIG GET: NOPERM config; INFO: NOPERM info)");
  }

  @Test
  void aRefusedConfigGetIsAnsweredByInfo() {
    // As on managed Redis services: CONFIG is refused, INFO memory gave the settings.
    assertThat(
            findings(new Settings("a", "noeviction", "1000", "ERR unknown command 'CONFIG'", null)))
        .isEmpty();
  }

  @Test
  void settingsNobodyCouldReadAreOneLineSayingWhatToVerify() {
    List<String> lines = findings(new Settings("a", null, null, "NOPERM config", "NOPERM info"));
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .contains("could not read")
        .contains("CONFIG GET: NOPERM config; INFO: NOPERM info")
        .contains("Verify that maxmemory-policy is noeviction")
        .contains("may run INFO");
  }

  @Test
  void aRefusedInfoIsSaidEvenWhenTheSettingsAreFine() {
    List<String> lines = findings(new Settings("a", "noeviction", "1000", null, "NOPERM info"));
    assertThat(lines).singleElement().asString().contains("refuses INFO").contains("+info");
  }

  @Test
  void aPasswordInTheUriIsNotLogged() {
    assertThat(
            RedisEvictionCheck.withoutPassword(
                "tidemark.scope.redis-uri rediss://app:s3cret@cache:6380/0"))
        .isEqualTo("tidemark.scope.redis-uri rediss://cache:6380/0");
    assertThat(RedisEvictionCheck.withoutPassword("spring.data.redis cache:6379"))
        .isEqualTo("spring.data.redis cache:6379");
  }

  @Test
  void durationsReadAsPeopleWriteThem() {
    assertThat(RedisEvictionCheck.describe(Duration.ofHours(2))).isEqualTo("2 h");
    assertThat(RedisEvictionCheck.describe(Duration.ofMinutes(10))).isEqualTo("10 min");
    assertThat(RedisEvictionCheck.describe(Duration.ofSeconds(90))).isEqualTo("90 s");
    assertThat(RedisEvictionCheck.describe(Duration.ofMillis(1500))).isEqualTo("1500 ms");
  }
}
