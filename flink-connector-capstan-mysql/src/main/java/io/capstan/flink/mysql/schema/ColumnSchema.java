package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;

import java.io.Serializable;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One column of a captured table: its MySQL type facts and the Flink type it maps to (see
 * docs/types.md). Built by {@code schema.read.JdbcSchemaReader} and {@code BinlogSchemaReader},
 * which produce equal objects for the same column.
 *
 * <p>{@link #length()} is the declared length: characters for CHAR/VARCHAR, bytes for
 * BINARY/VARBINARY, bits for BIT, 0 otherwise. {@link #precision()} is the DECIMAL precision or the
 * fractional-seconds digits of TIME/DATETIME/TIMESTAMP, 0 otherwise. {@link #scale()} is the
 * DECIMAL scale. {@link #charset()} is the canonical MySQL character set of CHAR/VARCHAR/TEXT
 * columns ({@code binary} for BINARY/VARBINARY/BLOB), null for other types.
 */
@Internal
public final class ColumnSchema implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final MySqlType type;
    private final boolean unsigned;
    private final int length;
    private final int precision;
    private final int scale;
    private final String charset;
    private final List<String> enumValues;
    private final List<String> setValues;
    private final boolean nullable;
    private final LogicalType logicalType;

    private ColumnSchema(Builder b, LogicalType logicalType) {
        this.name = b.name;
        this.type = b.type;
        this.unsigned = b.unsigned;
        this.length = b.length;
        this.precision = b.precision;
        this.scale = b.scale;
        this.charset = b.charset;
        this.enumValues = List.copyOf(b.enumValues);
        this.setValues = List.copyOf(b.setValues);
        this.nullable = b.nullable;
        this.logicalType = logicalType;
    }

    public static Builder builder(String name, MySqlType type) {
        return new Builder(name, type);
    }

    public String name() {
        return name;
    }

    public MySqlType type() {
        return type;
    }

    /** Whether a numeric column is UNSIGNED (always false for other types). */
    public boolean unsigned() {
        return unsigned;
    }

    public int length() {
        return length;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    /** The canonical MySQL character set, or null for types without one. */
    public String charset() {
        return charset;
    }

    /** Whether values are bytes with the {@code binary} character set (no text decoding). */
    public boolean isBinaryCharset() {
        return MySqlCharsets.BINARY.equals(charset);
    }

    /** The ENUM labels in definition order (empty for other types). */
    public List<String> enumValues() {
        return enumValues;
    }

    /** The SET labels in definition order (empty for other types). */
    public List<String> setValues() {
        return setValues;
    }

    public boolean nullable() {
        return nullable;
    }

    /** The Flink type this column's values have, nullability included. */
    public LogicalType logicalType() {
        return logicalType;
    }

    /** A copy of this column with another nullability (primary key columns are NOT NULL). */
    ColumnSchema withNullable(TableId table, boolean newNullable) {
        return toBuilder().nullable(newNullable).build(table);
    }

    Builder toBuilder() {
        Builder b = new Builder(name, type);
        b.unsigned = unsigned;
        b.length = length;
        b.precision = precision;
        b.scale = scale;
        b.charset = charset;
        b.enumValues = enumValues;
        b.setValues = setValues;
        b.nullable = nullable;
        return b;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ColumnSchema)) {
            return false;
        }
        ColumnSchema c = (ColumnSchema) o;
        return unsigned == c.unsigned
                && length == c.length
                && precision == c.precision
                && scale == c.scale
                && nullable == c.nullable
                && name.equals(c.name)
                && type == c.type
                && Objects.equals(charset, c.charset)
                && enumValues.equals(c.enumValues)
                && setValues.equals(c.setValues)
                && logicalType.equals(c.logicalType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, unsigned, length, precision, scale, charset, nullable);
    }

    /**
     * Names and types only: never values (the no-values rule). ENUM/SET labels are left out too.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(name).append(' ').append(type);
        if (type == MySqlType.DECIMAL) {
            sb.append('(').append(precision).append(',').append(scale).append(')');
        } else if (length > 0) {
            sb.append('(').append(length).append(')');
        } else if (type.hasFractionalSeconds()) {
            sb.append('(').append(precision).append(')');
        } else if (type == MySqlType.ENUM || type == MySqlType.SET) {
            int n = type == MySqlType.ENUM ? enumValues.size() : setValues.size();
            sb.append('[').append(n).append(" labels]");
        }
        if (unsigned) {
            sb.append(" UNSIGNED");
        }
        if (charset != null) {
            sb.append(" CHARSET ").append(charset);
        }
        sb.append(nullable ? " NULL" : " NOT NULL");
        sb.append(" -> ").append(logicalType.asSummaryString());
        return sb.toString();
    }

    /** Builds a column; {@link #build(TableId)} maps it to its Flink type or refuses it. */
    public static final class Builder {
        private final String name;
        private final MySqlType type;
        private boolean unsigned;
        private int length;
        private int precision;
        private int scale;
        private String charset;
        private List<String> enumValues = Collections.emptyList();
        private List<String> setValues = Collections.emptyList();
        private boolean nullable = true;

        private Builder(String name, MySqlType type) {
            this.name = Objects.requireNonNull(name, "name");
            this.type = Objects.requireNonNull(type, "type");
        }

        public Builder unsigned(boolean value) {
            this.unsigned = value;
            return this;
        }

        public Builder length(int value) {
            this.length = value;
            return this;
        }

        public Builder precision(int value) {
            this.precision = value;
            return this;
        }

        public Builder scale(int value) {
            this.scale = value;
            return this;
        }

        public Builder charset(String value) {
            this.charset = MySqlCharsets.canonical(value);
            return this;
        }

        public Builder enumValues(List<String> value) {
            this.enumValues = value;
            return this;
        }

        public Builder setValues(List<String> value) {
            this.setValues = value;
            return this;
        }

        public Builder nullable(boolean value) {
            this.nullable = value;
            return this;
        }

        /**
         * Normalizes the facts each reader may see differently (display widths, charsets of
         * non-character types) and maps the column to its Flink type.
         *
         * @throws io.capstan.flink.mysql.error.CapstanHaltException UNSUPPORTED_COLUMN_TYPE naming
         *     the table and column when the column cannot be mapped
         */
        public ColumnSchema build(TableId table) {
            if (!(type.isInteger()
                    || type == MySqlType.DECIMAL
                    || type == MySqlType.FLOAT
                    || type == MySqlType.DOUBLE)) {
                unsigned = false;
            }
            if (type.isBinaryString()) {
                charset = MySqlCharsets.BINARY;
            } else if (!type.isCharacter()) {
                charset = null;
            }
            if (!(type.isCharacter() && (type == MySqlType.CHAR || type == MySqlType.VARCHAR))
                    && type != MySqlType.BINARY
                    && type != MySqlType.VARBINARY
                    && type != MySqlType.BIT) {
                length = 0;
            }
            if (type != MySqlType.DECIMAL && !type.hasFractionalSeconds()) {
                precision = 0;
            }
            if (type != MySqlType.DECIMAL) {
                scale = 0;
            }
            if (type != MySqlType.ENUM) {
                enumValues = Collections.emptyList();
            }
            if (type != MySqlType.SET) {
                setValues = Collections.emptyList();
            }
            return new ColumnSchema(this, FlinkTypeMapping.logicalType(table, this.snapshot()));
        }

        private ColumnFacts snapshot() {
            return new ColumnFacts(
                    name, type, unsigned, length, precision, scale, charset, nullable);
        }
    }

    /** The facts the type mapping needs, for {@link FlinkTypeMapping}. */
    record ColumnFacts(
            String name,
            MySqlType type,
            boolean unsigned,
            int length,
            int precision,
            int scale,
            String charset,
            boolean nullable) {}
}
