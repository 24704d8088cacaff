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
 * shows values. A {@link Operation#SCHEMA_CHANGE} (only with the builder's {@code
 * includeSchemaChanges(true)}) has no images either; its schema is the table's new columns.
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
    @Nullable private final String schemaChangeKind;

    public ChangeEvent(
            Operation operation,
            @Nullable RowData before,
            @Nullable RowData after,
            TableSchema schema,
            TableId tableId,
            @Nullable String gtid,
            long commitTimestampMicros,
            int indexInTransaction) {
        this(
                operation,
                before,
                after,
                schema,
                tableId,
                gtid,
                commitTimestampMicros,
                indexInTransaction,
                null);
    }

    /**
     * @param schemaChangeKind for a {@link Operation#SCHEMA_CHANGE}, the statement's kind (e.g.
     *     {@code ALTER TABLE}); else null
     */
    public ChangeEvent(
            Operation operation,
            @Nullable RowData before,
            @Nullable RowData after,
            TableSchema schema,
            TableId tableId,
            @Nullable String gtid,
            long commitTimestampMicros,
            int indexInTransaction,
            @Nullable String schemaChangeKind) {
        this.operation = Objects.requireNonNull(operation, "operation");
        if ((schemaChangeKind != null) != (operation == Operation.SCHEMA_CHANGE)) {
            throw new IllegalArgumentException("a schema change kind goes with SCHEMA_CHANGE only");
        }
        this.schemaChangeKind = schemaChangeKind;
        this.before = before;
        this.after = after;
        if (schema == null
                && operation != Operation.TRUNCATE
                && operation != Operation.SCHEMA_CHANGE) {
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
     * The table's columns as this row was read under them: names, MySQL types and the Flink types
     * of the images' fields (from the binlog's table map of the row, or the snapshot's schema). A
     * deserializer that evolves its sink compares it with the last one it saw. Null for a {@link
     * Operation#TRUNCATE}, which carries no row. For a {@link Operation#SCHEMA_CHANGE}, the table's
     * columns right after the statement, or null when they cannot be known exactly (a later DDL of
     * the table had already run on the server when this one was read: the next rows' schemas then
     * tell the columns).
     */
    @Nullable
    public TableSchema schema() {
        return schema;
    }

    /**
     * For a {@link Operation#SCHEMA_CHANGE}, the kind of statement ({@code ALTER TABLE}, {@code
     * CREATE TABLE}, {@code CREATE INDEX}, {@code DROP INDEX}, {@code RENAME TABLE}); never its
     * text, which may hold values (DEFAULT clauses, CHECK constraints, comments). Else null.
     */
    @Nullable
    public String schemaChangeKind() {
        return schemaChangeKind;
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

    /**
     * The transaction's GTID ({@code uuid:n}); on a server without GTIDs the binlog position where
     * it starts ({@code <file index>:<offset>}); null for snapshot reads.
     */
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
        // The no-values rule: identifiers and positions only, never the images.
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
