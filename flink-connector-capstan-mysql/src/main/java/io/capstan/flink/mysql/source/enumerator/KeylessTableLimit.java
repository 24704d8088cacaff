package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;

import org.apache.flink.annotation.Internal;

/**
 * The size rule of a table without a unique key: it is read as one unsplit chunk, by one reader
 * that holds the chunk in memory whole, so a table estimated above {@code
 * scan.snapshot.keyless-table.max-rows} is refused by name before anything is read. Pure.
 */
@Internal
final class KeylessTableLimit {

    private KeylessTableLimit() {}

    /**
     * @param estimatedRows the server's estimate of the table's rows (information_schema)
     * @throws CapstanHaltException {@code table_without_key} when a keyless table is too large
     */
    static void check(ChunkKey key, long estimatedRows, long maxRows) {
        if (!key.isKeyless() || estimatedRows <= maxRows) {
            return;
        }
        throw new CapstanHaltException(
                HaltReason.TABLE_WITHOUT_KEY,
                "table "
                        + key.table()
                        + " has no primary key and no chunk key column, so it is read as one"
                        + " unsplit chunk, but it holds about "
                        + estimatedRows
                        + " rows, above '"
                        + CapstanMySqlOptions.SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS.key()
                        + "' ("
                        + maxRows
                        + "); add a primary key, or set '"
                        + CapstanMySqlOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN.key()
                        + "' (DataStream builder: chunkKeyColumn) to a NOT NULL column (it need not"
                        + " be unique: chunks are then ranges of its values),"
                        + " or raise '"
                        + CapstanMySqlOptions.SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS.key()
                        + "' (one reader then reads and holds the whole table)");
    }
}
