package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.event.Operation;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.RowKind;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The metadata columns a table can declare with {@code METADATA FROM '<key>' VIRTUAL}. */
enum MetadataColumn {
    /** The MySQL database of the changed row. */
    DATABASE_NAME("database_name", DataTypes.STRING().notNull()),
    /** The MySQL table of the changed row (tells shards apart). */
    TABLE_NAME("table_name", DataTypes.STRING().notNull()),
    /** When the transaction committed on the server; NULL for rows read by the snapshot. */
    OP_TS("op_ts", DataTypes.TIMESTAMP_LTZ(3).nullable()),
    /**
     * {@code op_ts} where the table declares it {@code NOT NULL}, as mysql-cdc has it: 0 (the
     * epoch) for rows read by the snapshot.
     */
    OP_TS_NOT_NULL("op_ts", DataTypes.TIMESTAMP_LTZ(3).notNull()),
    /**
     * {@code op_ts} declared nullable with {@code metadata.op-ts.snapshot-rows} = {@code epoch}: 0
     * (the epoch) for rows read by the snapshot, as mysql-cdc gives.
     */
    OP_TS_EPOCH("op_ts", DataTypes.TIMESTAMP_LTZ(3).nullable()),
    /** The transaction's GTID {@code uuid:n}; NULL for rows read by the snapshot. */
    GTID("gtid", DataTypes.STRING().nullable()),
    /** The change kind of this row: {@code +I}, {@code -U}, {@code +U} or {@code -D}. */
    ROW_KIND("row_kind", DataTypes.STRING().notNull());

    private static final StringData[] ROW_KIND_TEXT = rowKindText();

    private final String key;
    private final DataType dataType;

    MetadataColumn(String key, DataType dataType) {
        this.key = key;
        this.dataType = dataType;
    }

    String key() {
        return key;
    }

    DataType dataType() {
        return dataType;
    }

    /** The value for one emitted row; {@code table} holds the event's cached names. */
    Object read(ChangeEvent event, RowKind kind, EventNames names) {
        switch (this) {
            case DATABASE_NAME:
                return names.database(event);
            case TABLE_NAME:
                return names.table(event);
            case OP_TS:
                return event.operation() == Operation.READ
                        ? null
                        : TimestampData.fromEpochMillis(event.commitTimestampMillis());
            case OP_TS_NOT_NULL:
            case OP_TS_EPOCH:
                return TimestampData.fromEpochMillis(
                        event.operation() == Operation.READ ? 0 : event.commitTimestampMillis());
            case GTID:
                return event.gtid() == null ? null : StringData.fromString(event.gtid());
            case ROW_KIND:
                return ROW_KIND_TEXT[kind.ordinal()];
            default:
                throw new IllegalStateException("unknown metadata column " + this);
        }
    }

    /**
     * The readable columns by key; {@code op_ts} as {@link #OP_TS_NOT_NULL} when {@code
     * opTsNotNull}.
     */
    static Map<String, DataType> readable(boolean opTsNotNull) {
        return readable(opTsNotNull, false);
    }

    /**
     * The readable columns by key; {@code op_ts} as {@link #OP_TS_NOT_NULL} when {@code
     * opTsNotNull}, else as {@link #OP_TS_EPOCH} when {@code opTsEpoch}, else as {@link #OP_TS}.
     */
    static Map<String, DataType> readable(boolean opTsNotNull, boolean opTsEpoch) {
        MetadataColumn opTs = opTs(opTsNotNull, opTsEpoch);
        Map<String, DataType> m = new LinkedHashMap<>();
        for (MetadataColumn c : values()) {
            if (!c.key.equals(OP_TS.key) || c == opTs) {
                m.put(c.key, c.dataType);
            }
        }
        return m;
    }

    static Optional<MetadataColumn> ofKey(String key, boolean opTsNotNull) {
        return ofKey(key, opTsNotNull, false);
    }

    static Optional<MetadataColumn> ofKey(String key, boolean opTsNotNull, boolean opTsEpoch) {
        MetadataColumn opTs = opTs(opTsNotNull, opTsEpoch);
        return Arrays.stream(values())
                .filter(c -> c.key.equals(key) && (!c.key.equals(OP_TS.key) || c == opTs))
                .findFirst();
    }

    static Optional<MetadataColumn> ofKey(String key) {
        return ofKey(key, false);
    }

    private static MetadataColumn opTs(boolean notNull, boolean epoch) {
        return notNull ? OP_TS_NOT_NULL : epoch ? OP_TS_EPOCH : OP_TS;
    }

    private static StringData[] rowKindText() {
        StringData[] text = new StringData[RowKind.values().length];
        for (RowKind k : RowKind.values()) {
            text[k.ordinal()] = StringData.fromString(k.shortString());
        }
        return text;
    }

    /**
     * The database and table names of the last event as {@link StringData}, so that a stream of
     * changes to one table does not allocate them per row.
     */
    static final class EventNames {
        private io.capstan.flink.mysql.schema.TableId last;
        private StringData database;
        private StringData table;

        StringData database(ChangeEvent event) {
            refresh(event);
            return database;
        }

        StringData table(ChangeEvent event) {
            refresh(event);
            return table;
        }

        private void refresh(ChangeEvent event) {
            if (event.tableId() != last) {
                last = event.tableId();
                database = StringData.fromString(last.database());
                table = StringData.fromString(last.table());
            }
        }
    }
}
