/** Turns the benchmarks' JMH results and paired samples into a markdown table and a chart. */
@NullMarked
package io.tidemark.benchmarks.report;

import org.jspecify.annotations.NullMarked;
