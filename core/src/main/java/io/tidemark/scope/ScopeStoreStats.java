package io.tidemark.scope;

/**
 * Counts of what a {@link ScopeStore} did since it was created.
 *
 * @param reads scope reads
 * @param unknownReads reads that could not tell the scope's token (timeout, connection down,
 *     unreadable value, a scope Redis may have evicted) and reported {@link
 *     ScopeState.Status#UNKNOWN}
 * @param writes merges and dirty marks
 * @param failedWrites merges and dirty marks that were not stored
 */
public record ScopeStoreStats(long reads, long unknownReads, long writes, long failedWrites) {}
