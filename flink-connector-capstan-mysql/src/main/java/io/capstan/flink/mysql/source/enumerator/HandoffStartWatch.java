package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidModeChange;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import java.time.Duration;

/**
 * Whether the binlog the handoff will start from is still on the server while the snapshot runs.
 * The handoff starts at the intersection of every chunk's G, and later chunks only add to their G,
 * so the intersection of the chunks finished so far is already the start (or holds it). Once the
 * server purges a transaction outside it, the handoff must end in {@code data_gap}: halting at once
 * saves the rest of the snapshot. Pure.
 */
@Internal
public final class HandoffStartWatch {

    /** How often the enumerator asks for {@code gtid_purged} while the snapshot runs. */
    public static final Duration DEFAULT_PERIOD =
            CapstanMySqlOptions.SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL.defaultValue();

    private HandoffStartWatch() {}

    /**
     * @param startSoFar the intersection of the G of every chunk finished so far
     * @param purged the server's {@code gtid_purged} now
     * @throws CapstanHaltException {@code data_gap} when {@code purged} holds a transaction outside
     *     {@code startSoFar}
     */
    public static void requireAvailable(GtidSet startSoFar, GtidSet purged, String serverAddress) {
        GtidModeChange.requireSameKind(startSoFar, purged, serverAddress);
        GtidSet lost = purged.subtract(startSoFar);
        if (lost.isEmpty()) {
            return;
        }
        throw new CapstanHaltException(
                HaltReason.DATA_GAP,
                "while the snapshot runs, "
                        + serverAddress
                        + " purged "
                        + lost.transactionCount()
                        + " transaction(s) the handoff to the binlog still has to read ("
                        + lost
                        + "): the snapshot cannot end exactly. Remedy: keep binlogs longer than"
                        + " the snapshot takes (binlog_expire_logs_seconds), raise the job's"
                        + " parallelism (a shorter snapshot), then start the job without state.");
    }
}
