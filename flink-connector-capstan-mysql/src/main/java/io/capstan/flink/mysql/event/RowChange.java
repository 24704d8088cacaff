package io.capstan.flink.mysql.event;

import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
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
 * is what the in-transaction resume relies on. {@link #toString()} shows no values (the no-values
 * rule).
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
    private final String schemaChangeKind;

    public RowChange(
            TableId tableId,
            TableSchema schema,
            Operation operation,
            RowData before,
            RowData after,
            Gtid gtid,
            int indexInTransaction,
            long commitTimestampMicros) {
        this(
                tableId,
                schema,
                operation,
                before,
                after,
                gtid,
                indexInTransaction,
                commitTimestampMicros,
                null);
    }

    /**
     * @param schemaChangeKind for {@link Operation#SCHEMA_CHANGE}, the statement's kind; else null
     */
    public RowChange(
            TableId tableId,
            TableSchema schema,
            Operation operation,
            RowData before,
            RowData after,
            Gtid gtid,
            int indexInTransaction,
            long commitTimestampMicros,
            String schemaChangeKind) {
        this.tableId = Objects.requireNonNull(tableId, "tableId");
        this.schema = schema;
        this.operation = Objects.requireNonNull(operation, "operation");
        if ((operation == Operation.INSERT || operation == Operation.READ)
                        && (before != null || after == null)
                || operation == Operation.DELETE && (before == null || after != null)
                || operation == Operation.UPDATE && (before == null || after == null)
                || (operation == Operation.TRUNCATE || operation == Operation.SCHEMA_CHANGE)
                        && (before != null || after != null)) {
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
        if ((schemaChangeKind != null) != (operation == Operation.SCHEMA_CHANGE)) {
            throw new IllegalArgumentException("a schema change kind goes with SCHEMA_CHANGE only");
        }
        this.schemaChangeKind = schemaChangeKind;
    }

    /** For {@link Operation#SCHEMA_CHANGE}, the statement's kind (never its text); else null. */
    public String schemaChangeKind() {
        return schemaChangeKind;
    }

    public TableId tableId() {
        return tableId;
    }

    /**
     * The schema the row was decoded with (from the table map that preceded it); null for a
     * TRUNCATE, which carries no row; for a SCHEMA_CHANGE the table's new columns, or null when
     * they cannot be known exactly.
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
                + BinlogPositionAxis.readable(gtid)
                + " index="
                + indexInTransaction
                + "}";
    }
}
