package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Objects;

/**
 * One column of a chunk key: its name, its position in the table's rows (0-based, the index of the
 * field in a snapshot or binlog RowData), how it orders and how MySQL declares it.
 */
@Internal
public final class KeyColumn implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final int rowIndex;
    private final KeyKind kind;
    private final boolean unsigned;

    /** BINARY(n)/VARBINARY(n) byte length, BIT(n) bits, DECIMAL precision; 0 when not relevant. */
    private final int length;

    /** DECIMAL scale, fractional-second digits of temporal types; 0 otherwise. */
    private final int scale;

    /** The MySQL data type name (e.g. "bigint"), for messages and SQL casts. */
    private final String dataType;

    public KeyColumn(
            String name,
            int rowIndex,
            KeyKind kind,
            boolean unsigned,
            int length,
            int scale,
            String dataType) {
        this.name = Objects.requireNonNull(name, "name");
        if (rowIndex < 0) {
            throw new IllegalArgumentException("rowIndex must be >= 0");
        }
        this.rowIndex = rowIndex;
        this.kind = Objects.requireNonNull(kind, "kind");
        this.unsigned = unsigned;
        this.length = length;
        this.scale = scale;
        this.dataType = Objects.requireNonNull(dataType, "dataType");
    }

    public String name() {
        return name;
    }

    public int rowIndex() {
        return rowIndex;
    }

    public KeyKind kind() {
        return kind;
    }

    public boolean unsigned() {
        return unsigned;
    }

    public int length() {
        return length;
    }

    public int scale() {
        return scale;
    }

    public String dataType() {
        return dataType;
    }

    /** The quoted identifier for SQL text. */
    public String quotedName() {
        return "`" + name.replace("`", "``") + "`";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KeyColumn)) {
            return false;
        }
        KeyColumn c = (KeyColumn) o;
        return name.equals(c.name)
                && rowIndex == c.rowIndex
                && kind == c.kind
                && unsigned == c.unsigned
                && length == c.length
                && scale == c.scale
                && dataType.equals(c.dataType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, rowIndex, kind);
    }

    @Override
    public String toString() {
        return name + " " + dataType + (unsigned ? " unsigned" : "") + " @" + rowIndex;
    }
}
