package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

import java.util.Objects;

/**
 * One changed row of a captured table, decoded with the table's converter.
 *
 * <p>{@link #indexInTransaction()} is the 0-based ordinal of this change among the captured row
 * changes of its transaction; together with {@link #gtid()} it identifies the change exactly, which
 * is what the in-transaction resume relies on. {@link #toString()} shows no values (Rule 1).
 */
@Internal
public final class RowChange implements BinlogRecord {

    private final TableId tableId;
    private final TableSchema schema;
    private final Operation operation;
    private final RowData before;
    private final RowData after;
    private final Gtid gtid;
    private final int indexInTransaction;
    private final long commitTimestampMicros;

    public RowChange(
            TableId tableId,
            TableSchema schema,
            Operation operation,
            RowData before,
            RowData after,
            Gtid gtid,
            int indexInTransaction,
            long commitTimestampMicros) {
        this.tableId = Objects.requireNonNull(tableId, "tableId");
        this.schema = schema;
        this.operation = Objects.requireNonNull(operation, "operation");
        if ((operation == Operation.INSERT || operation == Operation.READ)
                        && (before != null || after == null)
                || operation == Operation.DELETE && (before == null || after != null)
                || operation == Operation.UPDATE && (before == null || after == null)
                || operation == Operation.TRUNCATE && (before != null || after != null)) {
            throw new IllegalArgumentException("images do not match operation " + operation);
        }
        this.before = before;
        this.after = after;
        this.gtid = Objects.requireNonNull(gtid, "gtid");
        if (indexInTransaction < 0) {
            throw new IllegalArgumentException("indexInTransaction must be >= 0");
        }
        this.indexInTransaction = indexInTransaction;
        this.commitTimestampMicros = commitTimestampMicros;
    }

    public TableId tableId() {
        return tableId;
    }

    /**
     * The schema the row was decoded with (from the table map that preceded it); null for a
     * TRUNCATE, which carries no row.
     */
    public TableSchema schema() {
        return schema;
    }

    public Operation operation() {
        return operation;
    }

    /** The row before the change; null for INSERT. */
    public RowData before() {
        return before;
    }

    /** The row after the change; null for DELETE. */
    public RowData after() {
        return after;
    }

    @Override
    public Gtid gtid() {
        return gtid;
    }

    public int indexInTransaction() {
        return indexInTransaction;
    }

    @Override
    public long commitTimestampMicros() {
        return commitTimestampMicros;
    }

    @Override
    public String toString() {
        return "RowChange{"
                + operation
                + " "
                + tableId
                + " gtid="
                + gtid
                + " index="
                + indexInTransaction
                + "}";
    }
}
