package io.tidemark.spring.autoconfigure;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import io.tidemark.scope.ScopeStoreConfig;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/**
 * The scope store on the Redis the application already configured for Boot ({@code
 * spring.data.redis.*}, or a {@code @ServiceConnection}): standalone, Sentinel or Cluster, on
 * Boot's Lettuce client resources when there are some, so that no second set of event loops runs.
 */
final class BootRedis implements RedisConnector {

  private final DataRedisConnectionDetails details;
  private final @Nullable ClientResources resources;

  BootRedis(DataRedisConnectionDetails details, @Nullable ClientResources resources) {
    this.details = details;
    this.resources = resources;
  }

  @Override
  public ConnectedScopeStore connect(ScopeStoreConfig config, boolean nearCache) {
    // Spring Boot 3.5's connection details name neither: its build leaves this out. boot-4 {
    if (details.getSslBundle() != null || details.getMasterReplica() != null) {
      throw new TidemarkStartupException(
          "The scope store cannot use Boot's Redis settings: they ask for "
              + (details.getSslBundle() != null ? "an SSL bundle" : "a static primary and replicas")
              + ".",
          "Set tidemark.scope.redis-uri (rediss:// for TLS) to the Redis the scopes live in.");
    }
    // } boot-4
    DataRedisConnectionDetails.Cluster cluster = details.getCluster();
    if (cluster != null) {
      List<RedisURI> nodes =
          cluster.getNodes().stream().map(node -> node(node.host(), node.port()).build()).toList();
      RedisClusterClient client =
          resources != null
              ? RedisClusterClient.create(resources, nodes)
              : RedisClusterClient.create(nodes);
      return ConnectedScopeStore.connect(
          client, config, nearCache, "spring.data.redis.cluster.nodes " + cluster.getNodes());
    }
    DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
    RedisURI.Builder uri;
    String where;
    if (sentinel != null) {
      uri = RedisURI.builder().withSentinelMasterId(sentinel.getMaster());
      for (DataRedisConnectionDetails.Node node : sentinel.getNodes()) {
        RedisURI.Builder one = RedisURI.builder().withHost(node.host()).withPort(node.port());
        authenticate(one, sentinel.getUsername(), sentinel.getPassword());
        uri.withSentinel(one.build());
      }
      uri.withDatabase(sentinel.getDatabase());
      where = "spring.data.redis.sentinel " + sentinel.getMaster() + " " + sentinel.getNodes();
    } else {
      DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
      if (standalone == null) {
        throw new IllegalStateException(
            "Spring Boot's Redis connection details name no server: neither a cluster, a sentinel"
                + " nor a standalone one");
      }
      uri = node(standalone.getHost(), standalone.getPort()).withDatabase(standalone.getDatabase());
      where = "spring.data.redis " + standalone.getHost() + ":" + standalone.getPort();
    }
    authenticate(uri, details.getUsername(), details.getPassword());
    RedisClient client =
        resources != null
            ? RedisClient.create(resources, uri.build())
            : RedisClient.create(uri.build());
    return ConnectedScopeStore.connect(client, config, nearCache, where);
  }

  private RedisURI.Builder node(String host, int port) {
    return authenticate(
        RedisURI.builder().withHost(host).withPort(port),
        details.getUsername(),
        details.getPassword());
  }

  private static RedisURI.Builder authenticate(
      RedisURI.Builder uri, @Nullable String username, @Nullable String password) {
    if (password != null && username != null) {
      uri.withAuthentication(username, password);
    } else if (password != null) {
      uri.withPassword(password.toCharArray());
    }
    return uri;
  }
}
