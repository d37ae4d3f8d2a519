package io.tidemark.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.ConsistencyContext;
import io.tidemark.ConsistentReadException;
import io.tidemark.ReadPolicy;
import io.tidemark.spring.ReadYourWrites;
import io.tidemark.testkit.junit.TestkitExtension;
import io.tidemark.testkit.mysql.MySqlTopology;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A Boot application with Micrometer's Prometheus registry, as a Prometheus user runs it: a served,
 * a refused and a failed read each leave a {@code tidemark_read_seconds} series, with one set of
 * tag keys whatever the outcome (Prometheus refuses a meter whose keys differ from an earlier one's
 * of the same name), and the waits have theirs.
 */
@ExtendWith({TestkitExtension.class, OutputCaptureExtension.class})
class PrometheusScrapeIT {

  private static final Pattern SERIES =
      Pattern.compile("(?m)^(tidemark_read(?:_wait)?_seconds_count)\\{([^}]*)\\} ([0-9.E]+)$");

  static class Rows {
    private final JdbcTemplate jdbc;

    Rows(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    public void add(int id) {
      jdbc.update("INSERT INTO t VALUES (?)", id);
    }

    @ReadYourWrites(timeoutString = "5s")
    public int count() {
      return jdbc.queryForObject("SELECT COUNT(*) FROM t", Integer.class);
    }

    @ReadYourWrites(timeoutString = "300ms", onTimeout = ReadPolicy.FAIL)
    public int refused() {
      return jdbc.queryForObject("SELECT COUNT(*) FROM t", Integer.class);
    }

    @ReadYourWrites
    public int broken() {
      return jdbc.queryForObject("SELECT COUNT(*) FROM no_such_table", Integer.class);
    }
  }

  @Test
  void aServedARefusedAndAFailedReadEachHaveTheirSeriesWithTheSameTagKeys(
      MySqlTopology topology, CapturedOutput output) throws Exception {
    String db = topology.createDatabase("prometheus");
    topology.source().execute("CREATE TABLE `" + db + "`.t (id INT PRIMARY KEY)");
    topology.awaitReplicasCaughtUp(Duration.ofSeconds(10));
    try (ConfigurableApplicationContext app = start(topology, db)) {
      Rows rows = app.getBean(Rows.class);
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        rows.add(1);
        assertThat(rows.count()).isEqualTo(1);
      }
      topology.replica().pauseApplier();
      try (ConsistencyContext.Binding binding = ConsistencyContext.open()) {
        rows.add(2);
        assertThatThrownBy(rows::refused).isInstanceOf(ConsistentReadException.class);
      } finally {
        topology.replica().resumeApplier();
      }
      assertThatThrownBy(rows::broken).isNotInstanceOf(ConsistentReadException.class);

      String scrape = scrape(app);

      assertThat(output).doesNotContain("registration has failed");
      assertThat(series(scrape, "tidemark_read_seconds_count"))
          .anyMatch(s -> s.contains("method=\"Rows.count\"") && s.contains("outcome=\"REPLICA_"))
          .anyMatch(
              s -> s.contains("method=\"Rows.refused\"") && s.contains("outcome=\"WAIT_TIMEOUT\""))
          .anyMatch(s -> s.contains("method=\"Rows.broken\"") && s.contains("outcome=\"ERROR\""));
      assertThat(keys(series(scrape, "tidemark_read_seconds_count")))
          .containsExactly("error,method,node,outcome,role");
      assertThat(series(scrape, "tidemark_read_wait_seconds_count"))
          .anyMatch(s -> s.contains("node=\"replica-1\"") && s.contains("outcome=\"NOT_REACHED\""));
      assertThat(keys(series(scrape, "tidemark_read_wait_seconds_count"))).hasSize(1);
    }
  }

  private static ConfigurableApplicationContext start(MySqlTopology topology, String db) {
    return ActuatedApplication.start(
        topology,
        db,
        Rows.class,
        "tidemark.token.secret=prometheus-scrape-it-secret-0123456789abcdef",
        "management.endpoints.web.exposure.include=prometheus");
  }

  private static String scrape(ConfigurableApplicationContext app) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(ActuatedApplication.actuator(app, "prometheus")))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /** The tag lists of the series named {@code name}. */
  private static List<String> series(String scrape, String name) {
    Matcher m = SERIES.matcher(scrape);
    List<String> series = new java.util.ArrayList<>();
    while (m.find()) {
      if (m.group(1).equals(name)) {
        series.add(m.group(2));
      }
    }
    assertThat(series).as(name + " in\n" + scrape).isNotEmpty();
    return series;
  }

  /** Each series' tag keys, sorted and joined: one entry when all series share them. */
  private static Set<String> keys(List<String> series) {
    Set<String> keys = new TreeSet<>();
    for (String tags : series) {
      keys.add(
          String.join(
              ",",
              new TreeSet<>(
                  Pattern.compile("(\\w+)=\"[^\"]*\"")
                      .matcher(tags)
                      .results()
                      .map(r -> r.group(1))
                      .toList())));
    }
    return keys;
  }
}
