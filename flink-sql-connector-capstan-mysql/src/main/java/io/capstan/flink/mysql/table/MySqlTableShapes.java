package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Describes a connector {@link TableSchema} as the {@link MySqlTableShape} the checks use. */
final class MySqlTableShapes {

    private MySqlTableShapes() {}

    /**
     * The shape of {@code schema}; {@code chunkKeyIdentifiesRows} false when the configured chunk
     * key column of a table without a primary key is not unique (chunks are ranges of its values).
     */
    static MySqlTableShape of(TableSchema schema, boolean chunkKeyIdentifiesRows) {
        List<MySqlTableShape.Column> columns = new ArrayList<>();
        for (ColumnSchema c : schema.columns()) {
            columns.add(new MySqlTableShape.Column(c.name(), mysqlTypeText(c), valueType(c), c));
        }
        List<String> key = new ArrayList<>();
        for (int i : schema.keyColumnIndexes()) {
            key.add(schema.columns().get(i).name());
        }
        return new MySqlTableShape(schema.tableId(), columns, key, chunkKeyIdentifiesRows);
    }

    /**
     * The Flink type whose values the column can hold, as precisely as the schema knows it: the
     * connector maps CHAR, VARCHAR, BINARY and VARBINARY to STRING and BYTES (docs/types.md), but
     * their declared lengths bound the values, so a declared {@code VARCHAR(n)} of at least the
     * column's length is lossless. The internal representation is the same either way.
     */
    static LogicalType valueType(ColumnSchema c) {
        LogicalType mapped = c.logicalType();
        int length = c.length();
        if (length < 1) {
            return mapped;
        }
        boolean nullable = mapped.isNullable();
        if (mapped.getTypeRoot() == LogicalTypeRoot.VARCHAR) {
            if (c.type() == MySqlType.CHAR) {
                return new CharType(nullable, length);
            }
            if (c.type() == MySqlType.VARCHAR) {
                return new VarCharType(nullable, length);
            }
        }
        if (mapped.getTypeRoot() == LogicalTypeRoot.VARBINARY) {
            if (c.type() == MySqlType.BINARY) {
                return new BinaryType(nullable, length);
            }
            if (c.type() == MySqlType.VARBINARY) {
                return new VarBinaryType(nullable, length);
            }
        }
        return mapped;
    }

    /** The column's MySQL type as a user wrote it, e.g. {@code DECIMAL(12,2) UNSIGNED}. */
    static String mysqlTypeText(ColumnSchema c) {
        StringBuilder sb = new StringBuilder(c.type().name());
        if (c.type() == MySqlType.DECIMAL) {
            sb.append('(').append(c.precision()).append(',').append(c.scale()).append(')');
        } else if (c.length() > 0) {
            sb.append('(').append(c.length()).append(')');
        } else if (c.type().hasFractionalSeconds() && c.precision() > 0) {
            sb.append('(').append(c.precision()).append(')');
        }
        if (c.unsigned()) {
            sb.append(" UNSIGNED");
        }
        if (!c.nullable()) {
            sb.append(" NOT NULL");
        }
        return sb.toString().toUpperCase(Locale.ROOT);
    }
}
