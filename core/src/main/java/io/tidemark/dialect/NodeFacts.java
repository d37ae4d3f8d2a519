package io.tidemark.dialect;

import io.tidemark.GtidSet;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a node probe read of one server, in every database's terms.
 *
 * @param id the server's identity ({@code server_uuid}, or a PostgreSQL cluster and timeline)
 * @param writable whether the server takes writes
 * @param superReadOnly whether even privileged users cannot write (MySQL's {@code super_read_only})
 * @param replica whether the server replicates from another
 * @param replicating whether its replication runs: receiving and applying
 * @param replicatesFrom the identity of the source it receives from, when it tells
 * @param positionsOn whether the server keeps the positions tokens hold ({@code gtid_mode=ON})
 * @param executed what it has executed
 * @param ownWrites whether a replica can hold transactions of its own that its source lacks
 * @param applyingAge how long ago the transaction being applied now committed on the source, or
 *     {@code null} when none is
 * @param problems what the probe's user lacks on this server and what it costs; empty when nothing
 * @param grants the statements that grant what it lacks
 */
public record NodeFacts(
    String id,
    boolean writable,
    boolean superReadOnly,
    boolean replica,
    boolean replicating,
    @Nullable String replicatesFrom,
    boolean positionsOn,
    GtidSet executed,
    boolean ownWrites,
    @Nullable Duration applyingAge,
    String problems,
    List<String> grants) {}
