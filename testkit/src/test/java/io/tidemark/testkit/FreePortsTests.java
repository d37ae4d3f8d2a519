package io.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTests {

  @Test
  void neverHandsOutAPortTwice() {
    Set<Integer> ports = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      assertThat(ports.add(FreePorts.next())).as("port %d handed out again", i).isTrue();
    }
  }
}
