package io.tidemark.testkit.redis;

import io.tidemark.testkit.TestkitException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A Redis primary watched by Redis Sentinel, as local processes on free loopback ports started from
 * the same {@code redis-server} as {@link RedisServer}: one primary without replicas and one or
 * more sentinels, each running {@code redis-server sentinel.conf --sentinel} and monitoring the
 * primary under {@link #masterName()} with a quorum of one. {@link #start()} returns once every
 * sentinel names the primary's address.
 *
 * <p>Clients connect through the sentinels with {@link #uri()}, as Lettuce takes it; the primary
 * and each sentinel can be killed, restarted, frozen and thawed like a single server.
 */
public final class RedisSentinel implements AutoCloseable {

  private static final String MASTER_NAME = "tidemark";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  // Short, so that a test that stops the primary sees it marked down within a second or two.
  private static final Duration DOWN_AFTER = Duration.ofSeconds(1);

  private final RedisServer primary;
  private final List<RedisServer> sentinels;

  private RedisSentinel(RedisServer primary, List<RedisServer> sentinels) {
    this.primary = primary;
    this.sentinels = List.copyOf(sentinels);
  }

  /** Starts a primary and one sentinel and waits until the sentinel names the primary. */
  public static RedisSentinel start() {
    return start(1);
  }

  /** Starts a primary and {@code count} sentinels and waits until each names the primary. */
  public static RedisSentinel start(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("at least one sentinel, not " + count);
    }
    RedisServer primary = RedisServer.start();
    List<RedisServer> started = new ArrayList<>();
    try {
      List<String> directives =
          List.of(
              "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + primary.port() + " 1",
              "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER.toMillis());
      for (int i = 0; i < count; i++) {
        started.add(RedisServer.startSentinel(directives));
      }
      RedisSentinel sentinel = new RedisSentinel(primary, started);
      sentinel.awaitPrimary();
      return sentinel;
    } catch (RuntimeException e) {
      for (RedisServer server : started) {
        server.close();
      }
      primary.close();
      throw e;
    }
  }

  /** Waits until every running sentinel names the primary's address. */
  public void awaitPrimary() {
    String expected = primary.host() + ":" + primary.port();
    boolean named =
        RedisServer.awaitEveryRunning(
            sentinels, sentinel -> expected.equals(primaryAddress(sentinel)), READY_TIMEOUT);
    if (!named) {
      throw new TestkitException(
          "sentinels of " + this + " did not name " + expected + " within " + READY_TIMEOUT);
    }
  }

  /**
   * The address {@code sentinel} gives for {@link #masterName()}, as {@code host:port}, the way a
   * client asks for it; {@code null} when it knows no such name.
   */
  static @Nullable String primaryAddress(RedisServer sentinel) {
    List<String> reply =
        sentinel.commandForArray("SENTINEL", "get-master-addr-by-name", MASTER_NAME).stream()
            .map(String::valueOf)
            .toList();
    return reply.size() == 2 ? reply.get(0) + ":" + reply.get(1) : null;
  }

  /** The name the sentinels monitor the primary under, which clients ask them for. */
  public String masterName() {
    return MASTER_NAME;
  }

  /** The primary the sentinels monitor. */
  public RedisServer primary() {
    return primary;
  }

  /** The sentinels; each answers sentinel commands through {@link RedisServer#command}. */
  public List<RedisServer> sentinels() {
    return sentinels;
  }

  /**
   * {@code redis-sentinel://127.0.0.1:port[,127.0.0.1:port...]#masterName}, every sentinel and the
   * name, as Lettuce takes it.
   */
  public String uri() {
    return sentinels.stream()
        .map(sentinel -> sentinel.host() + ":" + sentinel.port())
        .collect(Collectors.joining(",", "redis-sentinel://", "#" + MASTER_NAME));
  }

  /** The server's version, from the primary. */
  public String version() {
    return primary.version();
  }

  /** Kills the sentinels and the primary and deletes their folders. */
  @Override
  public void close() {
    for (RedisServer sentinel : sentinels) {
      sentinel.close();
    }
    primary.close();
  }

  @Override
  public String toString() {
    return sentinels.stream()
        .map(sentinel -> Integer.toString(sentinel.port()))
        .collect(
            Collectors.joining(
                ",",
                "RedisSentinel(" + MASTER_NAME + " at 127.0.0.1:" + primary.port() + ", sentinels ",
                ")"));
  }
}
