package io.tidemark.testkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testkit.ReplicatedTopology;
import io.tidemark.testkit.junit.SharedServers;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/** {@link TestTopology} on MySQL, the default. */
@TestTopology(database = "shop")
class TestTopologyIT extends TestTopologyContract {

  @Override
  ReplicatedTopology<?> topology() {
    return SharedServers.topology();
  }

  @Nested
  class Inner {
    @Autowired Environment inner;

    @Test
    void aNestedTestSharesTheContextAndItsDatabase() {
      assertThat(inner.getProperty("spring.datasource.url"))
          .isEqualTo(environment.getProperty("spring.datasource.url"));
    }
  }
}
