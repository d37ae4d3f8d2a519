/**
 * Auto-configuration of Tidemark's core for Spring Boot: the topology of the source and its
 * replicas, write capture and read routing on the application's {@code DataSource}, the token
 * codec, the reader and the scope store, with start-up checks and failure analysis. Only the
 * auto-configuration, {@link io.tidemark.spring.autoconfigure.TidemarkProperties} and {@link
 * io.tidemark.spring.autoconfigure.NodeRuntime} are public; the last for the starter's own
 * packages.
 */
@NullMarked
package io.tidemark.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
