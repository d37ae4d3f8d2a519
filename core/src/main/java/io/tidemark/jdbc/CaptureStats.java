package io.tidemark.jdbc;

/**
 * Counts of what {@link CapturingDataSource} captured since it was created.
 *
 * @param tracked GTID sets reported by the server with the commit (session tracking)
 * @param queried captures by querying {@code @@GLOBAL.gtid_executed} after a commit
 * @param failed commits whose GTID could not be captured; each made its context dirty
 * @param unscoped connections checked out with no {@link io.tidemark.ConsistencyContext} bound,
 *     whose commits were not captured
 */
public record CaptureStats(long tracked, long queried, long failed, long unscoped) {}
