/**
 * Real servers for tests, started as local processes without Docker, or in containers ({@link
 * io.tidemark.testkit.Backend}), with network faults through a {@link
 * io.tidemark.testkit.FaultLink}. This package holds what every server shares; each server has its
 * own: {@link io.tidemark.testkit.mysql}, {@link io.tidemark.testkit.postgres}, {@link
 * io.tidemark.testkit.redis}, {@link io.tidemark.testkit.rabbitmq}; JUnit tests get shared ones
 * from {@link io.tidemark.testkit.junit.TestkitExtension}, Spring tests from {@link
 * io.tidemark.testkit.spring.TestTopology}.
 */
@NullMarked
package io.tidemark.testkit;

import org.jspecify.annotations.NullMarked;
