package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.Objects;

/**
 * One column of a chunk key: its name, its position in the table's rows (0-based, the index of the
 * field in a snapshot or binlog RowData), how it orders and how MySQL declares it.
 *
 * @param length BINARY(n)/VARBINARY(n) byte length, BIT(n) bits, DECIMAL precision; 0 when not
 *     relevant
 * @param scale DECIMAL scale, fractional-second digits of temporal types; 0 otherwise
 * @param dataType the MySQL data type name (e.g. "bigint"), for messages and SQL casts
 * @param collation the collation of a {@link KeyKind#STRING_COLLATED} column, else null
 */
@Internal
public record KeyColumn(
        String name,
        int rowIndex,
        KeyKind kind,
        boolean unsigned,
        int length,
        int scale,
        String dataType,
        @Nullable KeyCollation collation)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A column of a kind without a collation. */
    public KeyColumn(
            String name,
            int rowIndex,
            KeyKind kind,
            boolean unsigned,
            int length,
            int scale,
            String dataType) {
        this(name, rowIndex, kind, unsigned, length, scale, dataType, null);
    }

    public KeyColumn {
        Objects.requireNonNull(name, "name");
        if (rowIndex < 0) {
            throw new IllegalArgumentException("rowIndex must be >= 0");
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(dataType, "dataType");
        if ((kind == KeyKind.STRING_COLLATED) != (collation != null)) {
            throw new IllegalArgumentException("a collation goes with STRING_COLLATED only");
        }
    }

    /** The quoted identifier for SQL text. */
    public String quotedName() {
        return "`" + name.replace("`", "``") + "`";
    }

    @Override
    public String toString() {
        return name
                + " "
                + dataType
                + (unsigned ? " unsigned" : "")
                + (collation != null ? " " + collation.name() : "")
                + " @"
                + rowIndex;
    }
}
