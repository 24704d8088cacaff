package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

/**
 * Which tables a snapshot can read exactly. A chunk is read in a consistent read view opened under
 * the brief lock, and only InnoDB keeps that view after {@code UNLOCK TABLES}: a MyISAM, MEMORY,
 * ARCHIVE, MERGE or CSV table would show writes committed after the chunk's G, which the binlog
 * then delivers again. Such tables are refused before anything is read (stream-only start modes
 * need no read view and capture them).
 */
@Internal
final class TransactionalEngines {

    private TransactionalEngines() {}

    static void require(TableId table, String engine) {
        if (!"InnoDB".equalsIgnoreCase(engine)) {
            throw new CapstanHaltException(
                    HaltReason.NON_TRANSACTIONAL_TABLE,
                    "table "
                            + table
                            + " uses the storage engine "
                            + (engine.isEmpty() ? "(none reported)" : engine)
                            + ", which keeps no consistent read view, so its snapshot chunks"
                            + " could not be read at an exact position; convert it (ALTER TABLE "
                            + table.quoted()
                            + " ENGINE = InnoDB), leave it out of the table list, or capture it"
                            + " with a stream-only start mode (latest-offset, earliest-offset, a"
                            + " GTID set or a timestamp)");
        }
    }
}
