/**
 * Token scopes shared between requests and instances: per user, session or business object (such as
 * {@code order:101}) the union of the GTID sets written under it, so that a client that never
 * echoes a token header still reads its writes on any instance.
 *
 * <p>{@link io.tidemark.scope.ScopeStore} is the role and makes its kinds: on Redis (Lettuce;
 * standalone, Sentinel or Cluster) scopes are shared between instances, with Caffeine they stay in
 * one instance. A scope whose token cannot be read is reported {@link
 * io.tidemark.scope.ScopeState.Status#UNKNOWN}, never empty, and its reads take the source path.
 */
@NullMarked
package io.tidemark.scope;

import org.jspecify.annotations.NullMarked;
