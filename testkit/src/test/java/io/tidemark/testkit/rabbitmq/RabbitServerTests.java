package io.tidemark.testkit.rabbitmq;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.testkit.TestkitException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RabbitServerTests {

  @Test
  void aMissingInstallationNamesThePackageToInstall() {
    assertThatThrownBy(
            () ->
                RabbitServer.requireInstalled(
                    Path.of("/nonexistent/rabbitmq-server"), Map.of("PATH", "/usr/bin")))
        .isInstanceOf(TestkitException.class)
        .hasMessageContaining("/nonexistent/rabbitmq-server")
        .hasMessageContaining("apt-get install rabbitmq-server");
  }
}
