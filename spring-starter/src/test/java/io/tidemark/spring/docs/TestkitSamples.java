package io.tidemark.spring.docs;

import io.tidemark.testkit.mysql.MySqlTopology;

/** A topology of one's own. Starts servers: compiled only. */
final class TestkitSamples {

  private TestkitSamples() {}

  static void ownTopology() {
    // tag::own-topology[]
    try (MySqlTopology topology = MySqlTopology.builder().replicas(2).start()) {
      // a source and two replicas for this test alone; close() kills them and deletes their data
    }
    // end::own-topology[]
  }
}
