package io.tidemark.spring.docs;

import java.util.Optional;

/**
 * What the samples of other threads read through: the quick start's service (samples/quickstart),
 * whose {@code customer} is a read under {@code @ReadYourWrites}.
 */
interface Orders {
  Optional<String> customer(long id);
}
