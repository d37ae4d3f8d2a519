/**
 * Replicas as Spring Boot's service connections make them: a Testcontainers database container
 * marked {@link io.tidemark.spring.connection.ReplicaServiceConnection}, or a Docker Compose
 * service labelled {@code org.springframework.boot.service-connection: tidemark-replica}, becomes a
 * {@link io.tidemark.spring.autoconfigure.ReplicaConnectionDetails} bean.
 */
@NullMarked
package io.tidemark.spring.connection;

import org.jspecify.annotations.NullMarked;
