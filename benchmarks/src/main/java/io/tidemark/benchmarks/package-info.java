/** JMH benchmarks; each class's javadoc says what it measures and how to run it alone. */
@NullMarked
package io.tidemark.benchmarks;

import org.jspecify.annotations.NullMarked;
