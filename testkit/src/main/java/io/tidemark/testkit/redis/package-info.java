/**
 * Real Redis servers for tests: {@link io.tidemark.testkit.redis.RedisServer} (a process or a
 * container), {@link io.tidemark.testkit.redis.RedisCluster} and {@link
 * io.tidemark.testkit.redis.RedisSentinel}.
 */
@NullMarked
package io.tidemark.testkit.redis;

import org.jspecify.annotations.NullMarked;
