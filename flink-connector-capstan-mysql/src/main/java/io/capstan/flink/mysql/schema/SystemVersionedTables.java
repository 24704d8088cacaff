package io.capstan.flink.mysql.schema;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.annotation.Internal;

import java.util.Collection;

/**
 * Why MariaDB's system-versioned tables are refused, at the start and in the stream alike: the
 * server writes such a table's DELETE as an update of its hidden {@code row_end} column and its
 * UPDATE as an update plus an insert of the history row (seen in SHOW BINLOG EVENTS on 10.11), so
 * its row events are not its changes, and a snapshot, which reads only current rows, would not
 * match them.
 */
@Internal
public final class SystemVersionedTables {

    private SystemVersionedTables() {}

    /**
     * The halt for {@code tables}, which {@code what} (e.g. "is system-versioned", "was made
     * system-versioned in transaction 0-1-42").
     */
    public static CapstanHaltException refused(Collection<TableId> tables, String what) {
        String names =
                tables.size() == 1 ? "table " + tables.iterator().next() : "tables " + tables;
        String quoted = tables.iterator().next().quoted();
        return new CapstanHaltException(
                HaltReason.SYSTEM_VERSIONED_TABLE,
                names
                        + " of the configured table list "
                        + what
                        + " (MariaDB WITH SYSTEM VERSIONING): the server logs such a table's"
                        + " DELETE as an update of its hidden row_end column and its UPDATE with an"
                        + " insert of the history row, so its row events are not its changes, and"
                        + " capstan does not capture it. Remedy: ALTER TABLE "
                        + quoted
                        + " DROP SYSTEM VERSIONING (its history is dropped), or leave it out of the"
                        + " table list; then start the job without state.");
    }
}
