package io.capstan.flink.mysql.e2e.jobs;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * One text line per row change of a table with BIGINT columns {@code id} (the primary key, which
 * updates may move), {@code uid} (the row's immutable identity), {@code ver} (bumped by every
 * write) and {@code balance}:
 *
 * <pre>op,table,uid,idBefore,idAfter,ver,balance,gtid,indexInTransaction</pre>
 *
 * <p>{@code op} is r (snapshot read), c, u or d; {@code ver} and {@code balance} come from the
 * after image (the before image for d); a missing image's id is {@code -}, a snapshot read's gtid
 * is {@code -}. The line identifies the change uniquely, so a replay shows as a repeated line and a
 * lost change as a missing version. These lines hold test data only (no secrets); the job never
 * logs them.
 */
public final class VersionedRowLines implements CapstanDeserializer<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<String> out) {
        TableSchema schema = event.schema();
        RowData before = event.before();
        RowData after = event.after();
        RowData image = after != null ? after : before;
        String op =
                switch (event.operation()) {
                    case READ -> "r";
                    case INSERT -> "c";
                    case UPDATE -> "u";
                    case DELETE -> "d";
                    case TRUNCATE -> "t";
                    case SCHEMA_CHANGE ->
                            throw new IllegalStateException(
                                    "this job does not ask for schema-change records");
                };
        int id = schema.columnIndex("id");
        StringBuilder line =
                new StringBuilder(96)
                        .append(op)
                        .append(',')
                        .append(event.table())
                        .append(',')
                        .append(image.getLong(schema.columnIndex("uid")))
                        .append(',')
                        .append(before == null ? "-" : Long.toString(before.getLong(id)))
                        .append(',')
                        .append(after == null ? "-" : Long.toString(after.getLong(id)))
                        .append(',')
                        .append(image.getLong(schema.columnIndex("ver")))
                        .append(',')
                        .append(image.getLong(schema.columnIndex("balance")))
                        .append(',')
                        .append(event.gtid() == null ? "-" : event.gtid())
                        .append(',')
                        .append(event.indexInTransaction());
        out.collect(line.toString());
    }
}
