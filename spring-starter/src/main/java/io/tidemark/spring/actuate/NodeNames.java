package io.tidemark.spring.actuate;

import java.util.Optional;
import java.util.function.Function;

/**
 * Configured node names for the {@code server_uuid}s that execution records carry, so that tags and
 * reports name nodes the way the configuration does and stay few: one value per configured node
 * plus {@value #NONE} and {@value #UNKNOWN}, never one per UUID.
 */
final class NodeNames {

  /** The name of "no node": the read failed before any server answered. */
  static final String NONE = "none";

  /** The name of a UUID no configured node has or last had, e.g. a rebuilt server's former one. */
  static final String UNKNOWN = "unknown";

  private final Function<String, Optional<String>> names;

  /**
   * @param names the configured name of a {@code server_uuid}, as {@code TopologyView.nameOf} gives
   */
  NodeNames(Function<String, Optional<String>> names) {
    this.names = names;
  }

  /** The configured name of the node whose {@code server_uuid} is {@code serverUuid}. */
  String of(String serverUuid) {
    return serverUuid.isEmpty() ? NONE : names.apply(serverUuid).orElse(UNKNOWN);
  }
}
