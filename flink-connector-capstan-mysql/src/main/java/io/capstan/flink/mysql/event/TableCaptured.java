package io.capstan.flink.mysql.event;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * A table the stream captures from here on: a table the configured selection matches was created in
 * transaction {@link #gtid()} (docs/operations.md, "Tables created while the job runs"). Comes
 * before that transaction's rows and its {@link TransactionEnd}; a consumer adds the table to the
 * captured tables it checkpoints with its position, so that a stream restored from that position
 * captures it too. Idempotent: a table already captured stays captured.
 */
@Internal
public record TableCaptured(Gtid gtid, long commitTimestampMicros, TableId table)
        implements BinlogRecord {

    public TableCaptured {
        Objects.requireNonNull(gtid, "gtid");
        Objects.requireNonNull(table, "table");
    }
}
