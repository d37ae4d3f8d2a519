/**
 * Token scopes shared between requests and instances: per user, session or business object (such as
 * {@code order:101}) the union of the GTID sets written under it, so that a client that never
 * echoes a token header still reads its writes on any instance.
 *
 * <p>{@link io.tidemark.store.TokenStore} is the role; {@link io.tidemark.store.RedisTokenStore}
 * (Lettuce; standalone, Sentinel or Cluster) shares scopes between instances, {@link
 * io.tidemark.store.CaffeineTokenStore} keeps them in one instance. A scope whose token cannot be
 * read is reported {@link io.tidemark.store.ScopeToken.Status#UNKNOWN}, never empty, and its reads
 * take the source path.
 */
@NullMarked
package io.tidemark.store;

import org.jspecify.annotations.NullMarked;
