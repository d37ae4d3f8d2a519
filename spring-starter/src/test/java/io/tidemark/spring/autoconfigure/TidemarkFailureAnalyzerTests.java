package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Failed starts of a real application report Tidemark's problem and action through the analyzer
 * registered in {@code META-INF/spring.factories}. The settings fail before any server is reached.
 */
@ExtendWith(OutputCaptureExtension.class)
class TidemarkFailureAnalyzerTests {

  @SpringBootConfiguration
  @ImportAutoConfiguration({DataSourceAutoConfiguration.class, TidemarkAutoConfiguration.class})
  static class App {}

  @Test
  void reportsMissingReplicasWithTheirFix(CapturedOutput output) {
    assertThatThrownBy(() -> start("spring.datasource.url=jdbc:mysql://127.0.0.1:1/shop"))
        .hasRootCauseInstanceOf(TidemarkStartupException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Tidemark has no replica to read from: tidemark.replicas is empty.")
        .contains("Add the replicas of spring.datasource.url");
  }

  @Test
  void reportsAShortSecretWithTheRequiredLength(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                start(
                    "spring.datasource.url=jdbc:mysql://127.0.0.1:1/shop",
                    "tidemark.replicas[0].url=jdbc:mysql://127.0.0.1:2/shop",
                    "tidemark.token.secret=short"))
        .hasRootCauseInstanceOf(TidemarkStartupException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("tidemark.token.secret has 5 bytes; HMAC-SHA256 needs at least 32 random ones.")
        .contains("Set tidemark.token.secret to a random string of at least 32 characters");
  }

  @Test
  void leavesOtherFailuresToOtherAnalyzers() {
    var analyzer = new TidemarkFailureAnalyzer();
    assertThat(analyzer.analyze(new IllegalStateException("not ours"))).isNull();
    var analysis =
        analyzer.analyze(
            new RuntimeException(
                "bean creation failed", new TidemarkStartupException("problem", "action")));
    assertThat(analysis).isNotNull();
    assertThat(analysis.getDescription()).isEqualTo("problem");
    assertThat(analysis.getAction()).isEqualTo("action");
  }

  private static void start(String... properties) {
    new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run()
        .close();
  }
}
