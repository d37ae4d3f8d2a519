/**
 * JUnit 5 support: {@link io.tidemark.testkit.junit.TestkitExtension} hands tests servers shared by
 * every test of the JVM ({@link io.tidemark.testkit.junit.SharedServers}).
 */
@NullMarked
package io.tidemark.testkit.junit;

import org.jspecify.annotations.NullMarked;
