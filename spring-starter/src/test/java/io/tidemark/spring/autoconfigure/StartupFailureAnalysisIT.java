package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.ExecutionRecord;
import io.tidemark.NodeRole;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import io.tidemark.topology.ExecutionHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Starts that real servers refuse end with the failure analyzer's problem and action. */
@ExtendWith({TestkitExtension.class, OutputCaptureExtension.class})
class StartupFailureAnalysisIT {

  private static final String SECRET = "startup-failure-it-secret-0123456789abcdef";

  private static final Pattern GRANT = Pattern.compile("(?m)^\\s*(GRANT [^;\\n]+;)\\s*$");

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(Notes.class)
  static class App {}

  @Service
  static class Notes {
    private final JdbcTemplate jdbc;

    Notes(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @Transactional
    public void add(long id) {
      jdbc.update("INSERT INTO notes (id) VALUES (?)", id);
    }

    @ReadYourWrites(timeoutString = "5s")
    public boolean has(long id) {
      return !jdbc.queryForList("SELECT id FROM notes WHERE id = ?", Long.class, id).isEmpty();
    }
  }

  @Test
  void aReplicaRefusingTheLoginStopsTheStartWithItsFix(
      MySqlTopology topology, CapturedOutput output) {
    String db = topology.createDatabase("refused");

    assertThatThrownBy(
            () ->
                start(
                    "spring.datasource.url=" + topology.source().jdbcUrl(db),
                    "spring.datasource.username=" + topology.source().user(),
                    "spring.datasource.password=" + topology.source().password(),
                    "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db),
                    "tidemark.replicas[0].password=not-the-password"))
        .hasRootCauseInstanceOf(TidemarkStartupException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Node replica-1 refused Tidemark's login")
        .contains("Check the node's username and password")
        .contains("tidemark.topology.fail-fast=false");
  }

  @Test
  void noReplicasStopTheStartWithTheirFix(MySqlTopology topology, CapturedOutput output) {
    String db = topology.createDatabase("noreplica");

    assertThatThrownBy(
            () ->
                start(
                    "spring.datasource.url=" + topology.source().jdbcUrl(db),
                    "spring.datasource.username=" + topology.source().user(),
                    "spring.datasource.password=" + topology.source().password()))
        .hasRootCauseInstanceOf(TidemarkStartupException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Tidemark has no replica to read from")
        .contains("tidemark.replicas[0].url=");
  }

  /**
   * The README's {@code tidemark.token.secret=${TIDEMARK_SECRET}} with the variable unset: Boot
   * leaves the placeholder's text in place, which would sign every token with a key anyone can read
   * in the configuration, whatever its length.
   */
  @ParameterizedTest
  @ValueSource(strings = {"${TIDEMARK_SECRET}", "${TIDEMARK_TOKEN_SECRET_FOR_PRODUCTION}"})
  void anUnresolvedSecretPlaceholderStopsTheStartNamingWhatToSet(
      String placeholder, MySqlTopology topology, CapturedOutput output) {
    String variable = placeholder.substring(2, placeholder.length() - 1);
    assertThat(System.getenv(variable)).isNull();

    assertThatThrownBy(() -> start(topology, "placeholder", "tidemark.token.secret=" + placeholder))
        .hasRootCauseInstanceOf(TidemarkStartupException.class);

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains(
            "tidemark.token.secret is " + placeholder + ", a placeholder that did not resolve")
        .contains("Set the environment variable " + variable)
        .doesNotContain("secret of key k1");
  }

  @Test
  void everySecretTheDocumentationShowsStopsTheStart(MySqlTopology topology, CapturedOutput output)
      throws IOException {
    Set<String> shown = documentedSecrets();
    assertThat(shown).as("secrets shown in README.md and docs/").isNotEmpty();

    for (String secret : shown) {
      assertThatThrownBy(() -> start(topology, "documented", "tidemark.token.secret=" + secret))
          .as(secret)
          .hasRootCauseInstanceOf(TidemarkStartupException.class);
      assertThat(output).contains("tidemark.token.secret");
    }
  }

  /**
   * The usual production grant (data, no more) lacks what the probe reads on MySQL: the start stops
   * with the exact statements, and once they ran, the application starts, captures a write and
   * reads it on the replica.
   */
  @Test
  void aLeastPrivilegedUserStopsTheStartWithTheGrantsToRunAndStartsOnceTheyRan(
      MySqlTopology topology, CapturedOutput output) {
    String db = topology.createDatabase("leastprivilege");
    String user = "app_" + db.substring(db.length() - 6);
    topology
        .source()
        .execute(
            "CREATE TABLE `" + db + "`.notes (id BIGINT PRIMARY KEY)",
            "CREATE USER '" + user + "'@'%' IDENTIFIED BY 'app-password'",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON `" + db + "`.* TO '" + user + "'@'%'");
    String[] settings = {
      "spring.datasource.url=" + topology.source().jdbcUrl(db),
      "spring.datasource.username=" + user,
      "spring.datasource.password=app-password",
      "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db),
      "tidemark.token.secret=" + SECRET
    };
    awaitReplicaCaughtUp(topology);

    assertThatThrownBy(() -> start(settings))
        .hasRootCauseInstanceOf(TidemarkStartupException.class);

    String failure = output.toString();
    assertThat(failure)
        .contains("APPLICATION FAILED TO START")
        .contains("'" + user + "'@'%'")
        .contains("replication_connection_status");
    List<String> grants = grants(failure);
    assertThat(grants)
        .allSatisfy(grant -> assertThat(grant).endsWith(" TO '" + user + "'@'%';"))
        .anySatisfy(
            grant ->
                assertThat(grant)
                    .isEqualTo(
                        "GRANT SELECT ON performance_schema.replication_connection_status TO '"
                            + user
                            + "'@'%';"));

    topology.source().execute(grants.toArray(String[]::new));
    awaitReplicaCaughtUp(topology);
    try (ConfigurableApplicationContext app = run(settings);
        ConsistencyContext.Binding binding = ConsistencyContext.open()) {
      Notes notes = app.getBean(Notes.class);
      topology.replica().pauseApplier();
      try {
        notes.add(1);
        assertThat(binding.context().gtids().isEmpty()).as("the commit was captured").isFalse();
        topology.replica().resumeApplierAfter(java.time.Duration.ofMillis(200));
        assertThat(notes.has(1)).isTrue();
      } finally {
        topology.replica().resumeApplier();
      }
      ExecutionRecord read = app.getBean(ExecutionHistory.class).recent().get(0);
      assertThat(read.role()).as(read.toString()).isEqualTo(NodeRole.REPLICA);
    }
  }

  private static void awaitReplicaCaughtUp(MySqlTopology topology) {
    assertThat(
            topology
                .replica()
                .awaitGtidSet(topology.source().gtidExecuted(), java.time.Duration.ofSeconds(10)))
        .isTrue();
  }

  /** The GRANT statements of a failure analysis, one a line. */
  private static List<String> grants(String output) {
    Set<String> grants = new LinkedHashSet<>();
    Matcher m = GRANT.matcher(output);
    while (m.find()) {
      grants.add(m.group(1));
    }
    return new ArrayList<>(grants);
  }

  /**
   * The values of {@code tidemark.token.secret} that README.md and docs/ show, found from the
   * starter's folder or the next Boot line's below it.
   */
  private static Set<String> documentedSecrets() throws IOException {
    Pattern setting = Pattern.compile("tidemark\\.token\\.secret[=:]\\s*\"?([^\\s\",]+)");
    Set<String> secrets = new LinkedHashSet<>();
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(root.resolve("docs"))
        || !Files.isRegularFile(root.resolve("README.md"))) {
      root = root.getParent();
    }
    List<Path> documents = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(documents::add);
    }
    for (Path document : documents) {
      Matcher m = setting.matcher(Files.readString(document));
      while (m.find()) {
        secrets.add(m.group(1));
      }
    }
    return secrets;
  }

  private static void start(MySqlTopology topology, String prefix, String... more) {
    String db = topology.createDatabase(prefix);
    List<String> settings =
        new ArrayList<>(
            List.of(
                "spring.datasource.url=" + topology.source().jdbcUrl(db),
                "spring.datasource.username=" + topology.source().user(),
                "spring.datasource.password=" + topology.source().password(),
                "tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db)));
    settings.addAll(List.of(more));
    run(settings.toArray(String[]::new)).close();
  }

  private static void start(String... properties) {
    boolean secretSet = Stream.of(properties).anyMatch(p -> p.startsWith("tidemark.token.secret="));
    if (secretSet) {
      run(properties).close();
    } else {
      run(Stream.concat(Stream.of(properties), Stream.of("tidemark.token.secret=" + SECRET))
              .toArray(String[]::new))
          .close();
    }
  }

  private static ConfigurableApplicationContext run(String... properties) {
    return new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run();
  }
}
