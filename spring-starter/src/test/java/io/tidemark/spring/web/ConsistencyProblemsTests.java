package io.tidemark.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.Reason;
import io.tidemark.topology.NoWritableSourceException;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class ConsistencyProblemsTests {

  @Test
  void aWriteWithNoSingleWritableSourceIsA503WithItsReasonNotA500() throws IOException {
    var failure =
        new DataAccessResourceFailureException(
            "could not get a connection",
            new NoWritableSourceException(
                Reason.SPLIT_BRAIN, "source and replica-2 accept writes"));

    ConsistencyProblems.Problem problem = ConsistencyProblems.find(failure);
    MockHttpServletResponse response = new MockHttpServletResponse();
    new ConsistencyProblems(Duration.ofMillis(1500))
        .write(new MockHttpServletRequest("PUT", "/orders/7"), response, problem);

    assertThat(problem.reason()).isEqualTo(Reason.SPLIT_BRAIN);
    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getHeader("Retry-After")).isEqualTo("2");
    assertThat(response.getContentAsString())
        .contains("\"reason\":\"SPLIT_BRAIN\"")
        .contains("accepts writes")
        .doesNotContain("replica-2");
  }

  @Test
  void otherFailuresAreNotConsistencyProblems() {
    assertThat(ConsistencyProblems.find(new IllegalStateException("boom"))).isNull();
    assertThat(ConsistencyProblems.find(null)).isNull();
  }
}
