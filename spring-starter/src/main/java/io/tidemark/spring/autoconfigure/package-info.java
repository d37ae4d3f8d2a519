/**
 * Auto-configuration of Tidemark's core for Spring Boot: the topology of the source and its
 * replicas, write capture and read routing on the application's {@code DataSource}, the token
 * codec, the token exchange, the reader and the scope store, with start-up checks and failure
 * analysis. Public: the auto-configurations, {@link
 * io.tidemark.spring.autoconfigure.TidemarkProperties}, what an application may give or meet
 * ({@link io.tidemark.spring.autoconfigure.ReplicaPoolCustomizer}, {@link
 * io.tidemark.spring.autoconfigure.TidemarkStartupException}), and for the starter's concern
 * packages {@link io.tidemark.spring.autoconfigure.NodeRuntime}, {@link
 * io.tidemark.spring.autoconfigure.TokenExchangeConfiguration} and {@link
 * io.tidemark.spring.autoconfigure.TokenCarriers}.
 */
@NullMarked
package io.tidemark.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
