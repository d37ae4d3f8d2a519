package io.tidemark.spring.actuate;

import io.micrometer.observation.Observation;
import io.tidemark.ExecutionRecord;
import org.jspecify.annotations.Nullable;

/**
 * One read under {@code @ReadYourWrites} as a {@code tidemark.read} observation sees it: the
 * method, and once the read ended, its execution record and the configured name of its node. What a
 * {@link ReadObservationConvention} makes key values of.
 */
public final class ReadObservationContext extends Observation.Context {

  private final String method;
  private @Nullable ExecutionRecord record;
  private String node = NodeNames.NONE;

  ReadObservationContext(String method) {
    this.method = method;
  }

  /**
   * The annotated method as {@code Class.method}; a Spring Data repository's by its interface, not
   * by the proxy that implements it.
   */
  public String getMethod() {
    return method;
  }

  /**
   * How the read ended: node, role, reason and times; {@code null} while it runs, and for a read
   * that failed without a record (its query failed, say: see {@link #getError()}).
   */
  public @Nullable ExecutionRecord getRecord() {
    return record;
  }

  /**
   * The configured name of the node the record names: {@code none} when no node answered (or no
   * record yet), {@code unknown} for a server that no configured node is now.
   */
  public String getNode() {
    return node;
  }

  void recorded(ExecutionRecord record, String node) {
    this.record = record;
    this.node = node;
  }
}
