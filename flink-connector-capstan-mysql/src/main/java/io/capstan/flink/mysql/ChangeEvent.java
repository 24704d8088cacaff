package io.capstan.flink.mysql;

import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * One row change handed to a {@link CapstanDeserializer}: what happened to which row of which
 * table, in which transaction.
 *
 * <p>The images are Flink {@link RowData} in the column order of {@link #schema()}: {@code before}
 * is set for UPDATE and DELETE, {@code after} for READ, INSERT and UPDATE; a TRUNCATE (emitted only
 * under option {@code binlog.truncate.handling} = {@code emit}) has neither, nor a schema. They are
 * valid only during the {@code deserialize} call: copy what you keep. {@link #toString()} never
 * shows values.
 */
@PublicEvolving
public final class ChangeEvent {
    private final Operation operation;
    @Nullable private final RowData before;
    @Nullable private final RowData after;
    @Nullable private final TableSchema schema;
    private final TableId tableId;
    @Nullable private final String gtid;
    private final long commitTimestampMicros;
    private final int indexInTransaction;

    public ChangeEvent(
            Operation operation,
            @Nullable RowData before,
            @Nullable RowData after,
            TableSchema schema,
            TableId tableId,
            @Nullable String gtid,
            long commitTimestampMicros,
            int indexInTransaction) {
        this.operation = Objects.requireNonNull(operation, "operation");
        this.before = before;
        this.after = after;
        if (schema == null && operation != Operation.TRUNCATE) {
            throw new NullPointerException("schema");
        }
        this.schema = schema;
        this.tableId = Objects.requireNonNull(tableId, "tableId");
        this.gtid = gtid;
        this.commitTimestampMicros = commitTimestampMicros;
        this.indexInTransaction = indexInTransaction;
    }

    public Operation operation() {
        return operation;
    }

    /** The row before the change (UPDATE, DELETE), else null. */
    @Nullable
    public RowData before() {
        return before;
    }

    /** The row after the change (READ, INSERT, UPDATE), else null. */
    @Nullable
    public RowData after() {
        return after;
    }

    /**
     * The table's columns: names, MySQL types and the Flink types of the images' fields; null for a
     * {@link Operation#TRUNCATE}, which carries no row.
     */
    public TableSchema schema() {
        return schema;
    }

    public TableId tableId() {
        return tableId;
    }

    public String database() {
        return tableId.database();
    }

    public String table() {
        return tableId.table();
    }

    /** The transaction's GTID ({@code uuid:n}); null for snapshot reads. */
    @Nullable
    public String gtid() {
        return gtid;
    }

    /** When the transaction committed on the source, in microseconds since the epoch (UTC). */
    public long commitTimestampMicros() {
        return commitTimestampMicros;
    }

    /** {@link #commitTimestampMicros()} in milliseconds. */
    public long commitTimestampMillis() {
        return commitTimestampMicros / 1000;
    }

    /** This change's 0-based position among the captured row changes of its transaction. */
    public int indexInTransaction() {
        return indexInTransaction;
    }

    @Override
    public String toString() {
        // Rule 1: identifiers and positions only, never the images.
        return "ChangeEvent{"
                + operation
                + " "
                + tableId
                + ", gtid="
                + gtid
                + ", index="
                + indexInTransaction
                + ", commitMicros="
                + commitTimestampMicros
                + "}";
    }
}
