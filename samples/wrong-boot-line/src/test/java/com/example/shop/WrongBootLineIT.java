package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.mysql.MySqlTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The starter for Spring Boot 4 in an application on Spring Boot 3.5, configured for a real source
 * and replica as the quick start says: the start stops at once, saying which Boot the starter is
 * for, which this application runs, and which starter to take.
 */
@ExtendWith(OutputCaptureExtension.class)
class WrongBootLineIT {

  @Test
  void theStartStopsWithOnePlainSentenceNamingTheBootVersions(CapturedOutput output) {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    try (MySqlTopology topology = MySqlTopology.builder().start()) {
      String db = topology.createDatabase("shop");

      assertThatThrownBy(
              () ->
                  SpringApplication.run(
                          ShopApplication.class,
                          "--server.port=0",
                          "--spring.datasource.url=" + topology.source().jdbcUrl(db),
                          "--spring.datasource.username=" + topology.source().user(),
                          "--spring.datasource.password=" + topology.source().password(),
                          "--tidemark.replicas[0].url=" + topology.replica().jdbcUrl(db))
                      .close())
          .isNotNull();
    }

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains(
            "This build of Tidemark's starter is for Spring Boot 4; this application runs Spring"
                + " Boot "
                + SpringBootVersion.getVersion()
                + ".")
        .contains("tidemark-spring-boot3-starter for Spring Boot 3.5")
        .doesNotContain("hikariPoolDataSourceMetadataProvider");
  }
}
