/**
 * Consistency tokens: a {@link io.tidemark.GtidSet} signed for one cluster ({@link
 * io.tidemark.token.ConsistencyToken}), its wire form ({@link io.tidemark.token.TokenCodec}, keys
 * in a {@link io.tidemark.token.KeyRing}), the header that carries tokens of several clusters
 * ({@link io.tidemark.token.ConsistencyHeader}), and the exchange of tokens at a service's edges
 * ({@link io.tidemark.token.TokenExchange}). A token that cannot be trusted is refused with a
 * {@link io.tidemark.token.TokenRejectedException} naming the check it failed.
 */
@NullMarked
package io.tidemark.token;

import org.jspecify.annotations.NullMarked;
