package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import org.apache.flink.table.data.RowData;

/** TEMPORARY stand-in for branch binlog's RowChange (replaced on merge). */
public record RowChange(
        TableId tableId,
        TableSchema schema,
        Operation operation,
        RowData before,
        RowData after,
        Gtid gtid,
        int indexInTransaction,
        long commitTimestampMicros)
        implements BinlogRecord {}
