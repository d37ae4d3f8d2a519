package io.tidemark.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NodeConfigTests {

  @Test
  void takesMySqlAndPostgresUrlsAndRefusesOthers() {
    assertThat(new NodeConfig("a", "jdbc:mysql://db:3306/", "u", "p").jdbcUrl())
        .startsWith("jdbc:mysql:");
    assertThat(new NodeConfig("b", "jdbc:postgresql://db:5432/shop", "u", "p").jdbcUrl())
        .startsWith("jdbc:postgresql:");
    assertThatThrownBy(() -> new NodeConfig("c", "jdbc:h2:mem:x", "u", "p"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node c")
        .hasMessageContaining("jdbc:h2:mem:x");
    assertThatThrownBy(() -> new NodeConfig(" ", "jdbc:mysql://db/", "u", "p"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
