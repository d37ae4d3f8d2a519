/**
 * Real MySQL replication topologies, Redis servers and RabbitMQ brokers for tests, started as local
 * processes without Docker, or in containers ({@link io.tidemark.testkit.Backend}), with fault
 * injection (applier pause, receiver stop, delay, freeze, kill, failover, errant transactions, and
 * network faults through a {@link io.tidemark.testkit.FaultLink}).
 *
 * <p>Entry points: {@link io.tidemark.testkit.MySqlTopology}, {@link
 * io.tidemark.testkit.RedisServer}, {@link io.tidemark.testkit.RedisCluster}, {@link
 * io.tidemark.testkit.RedisSentinel}, {@link io.tidemark.testkit.RabbitServer} and, for JUnit tests
 * that share one of each per JVM, {@link io.tidemark.testkit.TestkitExtension}.
 */
@NullMarked
package io.tidemark.testkit;

import org.jspecify.annotations.NullMarked;
