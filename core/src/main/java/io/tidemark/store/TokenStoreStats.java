package io.tidemark.store;

/**
 * Counts of what a {@link TokenStore} did since it was created.
 *
 * @param reads scope reads
 * @param unknownReads reads that could not tell the scope's token (timeout, connection down,
 *     unreadable value) and reported {@link ScopeToken.Status#UNKNOWN}
 * @param writes merges and dirty marks
 * @param failedWrites merges and dirty marks that were not stored
 */
public record TokenStoreStats(long reads, long unknownReads, long writes, long failedWrites) {}
