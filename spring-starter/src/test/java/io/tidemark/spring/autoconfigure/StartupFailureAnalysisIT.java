package io.tidemark.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.MySqlTopology;
import io.tidemark.testkit.TestkitExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Starts that real servers refuse end with the failure analyzer's problem and action. */
@ExtendWith({TestkitExtension.class, OutputCaptureExtension.class})
class StartupFailureAnalysisIT {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

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

  private static void start(String... properties) {
    new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .properties("tidemark.token.secret=startup-failure-it-secret-0123456789abcdef")
        .run()
        .close();
  }
}
