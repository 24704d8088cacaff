package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.ddl.SnapshotDdlGuard;

import org.apache.flink.annotation.Internal;

import java.util.Set;

/**
 * The binlog's DDL hook after a snapshot: halts with {@code snapshot_schema_drifted} on a DDL, in a
 * transaction some but not all of whose chunks of a table hold, that touches that table: its chunks
 * were read under two schemas. The split's gate as assigned or restored is enough: a table that
 * retired later has every G in the processed set, so no later transaction can fall between its
 * chunks. It also tells the stream which tables' snapshots already show a transaction (every chunk
 * read after it), so a TRUNCATE, DROP or RENAME there is no news.
 */
@Internal
public final class SnapshotDdlObserver {

    private SnapshotDdlObserver() {}

    public static DdlObserver of(CursorGate gate) {
        if (gate.chunkCount() == 0) {
            return DdlObserver.NONE;
        }
        return new DdlObserver() {
            @Override
            public void onDdl(String database, String sql, Gtid gtid) {
                Set<TableId> inProgress = gate.tablesInProgressAt(gtid);
                if (!inProgress.isEmpty()) {
                    SnapshotDdlGuard.check(database, sql, inProgress);
                }
            }

            @Override
            public boolean snapshotHolds(TableId table, Gtid gtid) {
                return gate.snapshotHolds(table, gtid);
            }
        };
    }
}
