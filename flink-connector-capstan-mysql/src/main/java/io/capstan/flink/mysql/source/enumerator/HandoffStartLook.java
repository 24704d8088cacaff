package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.gtid.GtidSet;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.List;

/**
 * What one look of an {@code initial} snapshot's purge watch reads, on the enumerator's worker:
 * {@code gtid_purged} for {@link HandoffStartWatch}, and the binlog retention for {@link
 * SnapshotRetentionMonitor} ({@code null} when it could not be read).
 */
@Internal
record HandoffStartLook(GtidSet purged, @Nullable SnapshotPlanning.RetentionFacts facts) {

    private static final Logger LOG = LoggerFactory.getLogger(HandoffStartLook.class);

    /**
     * @throws Exception when {@code gtid_purged} cannot be read; the retention only feeds a gauge
     *     and a warning, so failing to read it must not hide the purge
     */
    static HandoffStartLook take(SnapshotPlanning planning) throws Exception {
        GtidSet purged = planning.gtidPurged();
        try {
            return new HandoffStartLook(purged, planning.retentionFacts(List.of()));
        } catch (Exception e) {
            LOG.warn("Could not read the binlog retention: {}", e.toString());
            return new HandoffStartLook(purged, null);
        }
    }
}
