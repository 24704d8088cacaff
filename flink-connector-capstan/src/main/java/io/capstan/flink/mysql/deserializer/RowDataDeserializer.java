package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

import java.util.Objects;

/**
 * Emits each change as Flink {@link RowData} with its {@link RowKind}: INSERT and snapshot READ as
 * {@code +I}, UPDATE as {@code -U} (before) then {@code +U} (after), DELETE as {@code -D}.
 *
 * <p>The rows keep the table's column order. All captured tables must share the row type the given
 * type information describes (for Flink's table runtime: {@code InternalTypeInfo.of(rowType)});
 * capture tables of different shapes with one source per shape or with a custom deserializer.
 */
@PublicEvolving
public final class RowDataDeserializer implements CapstanDeserializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<RowData> producedType;

    public RowDataDeserializer(TypeInformation<RowData> producedType) {
        this.producedType = Objects.requireNonNull(producedType, "producedType");
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<RowData> out) {
        switch (event.operation()) {
            case READ:
            case INSERT:
                out.collect(withKind(event.after(), RowKind.INSERT));
                break;
            case UPDATE:
                out.collect(withKind(event.before(), RowKind.UPDATE_BEFORE));
                out.collect(withKind(event.after(), RowKind.UPDATE_AFTER));
                break;
            case DELETE:
                out.collect(withKind(event.before(), RowKind.DELETE));
                break;
            default:
                throw new IllegalStateException("unknown operation " + event.operation());
        }
    }

    private static RowData withKind(RowData row, RowKind kind) {
        // Each image is a fresh object per change (see ChangeEvent), so setting its kind is safe.
        row.setRowKind(kind);
        return row;
    }
}
