package io.tidemark.testkit;

import java.util.HashMap;
import java.util.Map;

/**
 * The named {@link FaultLink}s to one server, each opened on first use. Several links to one server
 * let a test cut one kind of traffic (a health probe, say) apart from another (a pool).
 */
public final class FaultLinks {

  private final String host;
  private final int port;
  private final Map<String, FaultLink> links = new HashMap<>();
  private boolean closed;

  public FaultLinks(String host, int port) {
    this.host = host;
    this.port = port;
  }

  /** The link named {@code name}, opened again if a test closed it. */
  public synchronized FaultLink named(String name) {
    if (closed) {
      // A link opened now would outlive the server it leads to.
      throw new IllegalStateException("the server of link " + name + " is closed");
    }
    return links.compute(
        name, (key, link) -> link == null || link.closed() ? FaultLink.to(host, port) : link);
  }

  public synchronized void closeAll() {
    closed = true;
    links.values().forEach(FaultLink::close);
    links.clear();
  }
}
