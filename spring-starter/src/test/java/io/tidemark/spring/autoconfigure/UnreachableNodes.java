package io.tidemark.spring.autoconfigure;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Settings of a Tidemark whose source and replica do not answer (nothing listens on their ports),
 * so that auto-configurations start with their real beans and no server; the probes report the
 * nodes UNREACHABLE.
 */
public final class UnreachableNodes {

  public static final String[] PROPERTIES = {
    "spring.datasource.url=jdbc:mysql://127.0.0.1:1/shop",
    "spring.datasource.username=app",
    "spring.datasource.password=secret",
    "tidemark.replicas[0].url=jdbc:mysql://127.0.0.1:2/shop",
    "tidemark.topology.fail-fast=false",
    "tidemark.topology.probe-connect-timeout=200ms",
    "tidemark.token.secret=0123456789abcdef0123456789abcdef"
  };

  /** Boot's DataSource, Tidemark's and the routing auto-configurations, on these settings. */
  public static ApplicationContextRunner runner() {
    return TidemarkRunners.runner().withPropertyValues(PROPERTIES);
  }

  private UnreachableNodes() {}
}
