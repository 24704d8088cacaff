package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import java.util.List;

/** Builds binlog records for unit tests: a table {@code db.t(id BIGINT, name VARCHAR)}. */
public final class TestChanges {
    public static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    public static final TableId TABLE = TableId.of("db", "t");
    public static final TableSchema SCHEMA =
            new TableSchema(
                    TABLE,
                    List.of(
                            ColumnSchema.builder("id", MySqlType.BIGINT)
                                    .nullable(false)
                                    .build(TABLE),
                            ColumnSchema.builder("name", MySqlType.VARCHAR)
                                    .length(255)
                                    .charset("utf8mb4")
                                    .build(TABLE)),
                    new int[] {0});

    private TestChanges() {}

    public static Gtid gtid(long n) {
        return Gtid.of(UUID, n);
    }

    public static GenericRowData row(long id, String name) {
        return GenericRowData.of(id, StringData.fromString(name));
    }

    public static RowChange insert(long txn, int index, long id, String name) {
        return new RowChange(
                TABLE,
                SCHEMA,
                Operation.INSERT,
                null,
                row(id, name),
                gtid(txn),
                index,
                1_700_000_000_000_000L + txn);
    }

    public static RowChange update(long txn, int index, long id, String before, String after) {
        return new RowChange(
                TABLE,
                SCHEMA,
                Operation.UPDATE,
                row(id, before),
                row(id, after),
                gtid(txn),
                index,
                1_700_000_000_000_000L + txn);
    }

    public static RowChange delete(long txn, int index, long id, String name) {
        return new RowChange(
                TABLE,
                SCHEMA,
                Operation.DELETE,
                row(id, name),
                null,
                gtid(txn),
                index,
                1_700_000_000_000_000L + txn);
    }

    public static TransactionEnd end(long txn) {
        return new TransactionEnd(gtid(txn), 1_700_000_000_000_000L + txn);
    }
}
