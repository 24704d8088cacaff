package io.capstan.flink.mysql.schema;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/** The MySQL-to-Flink type mapping documented in docs/types.md. */
final class FlinkTypeMapping {

    /** Flink's largest DECIMAL precision; wider MySQL DECIMALs map to STRING. */
    static final int MAX_FLINK_DECIMAL_PRECISION = DecimalType.MAX_PRECISION;

    private FlinkTypeMapping() {}

    static LogicalType logicalType(TableId table, ColumnSchema.ColumnFacts c) {
        boolean n = c.nullable();
        if (c.type().isSpatial()) {
            return bytes(n);
        }
        switch (c.type()) {
            case TINYINT:
                return c.unsigned() ? new SmallIntType(n) : new TinyIntType(n);
            case SMALLINT:
                return c.unsigned() ? new IntType(n) : new SmallIntType(n);
            case MEDIUMINT:
                return new IntType(n);
            case INT:
                return c.unsigned() ? new BigIntType(n) : new IntType(n);
            case BIGINT:
                return c.unsigned() ? new DecimalType(n, 20, 0) : new BigIntType(n);
            case DECIMAL:
                if (c.precision() < 1 || c.scale() < 0 || c.scale() > c.precision()) {
                    throw unsupported(table, c, "DECIMAL precision/scale out of range");
                }
                return c.precision() <= MAX_FLINK_DECIMAL_PRECISION
                        ? new DecimalType(n, c.precision(), c.scale())
                        : string(n);
            case FLOAT:
                return new FloatType(n);
            case DOUBLE:
                return new DoubleType(n);
            case BIT:
                if (c.length() < 1 || c.length() > 64) {
                    throw unsupported(table, c, "BIT length out of range");
                }
                return c.length() == 1 ? new BooleanType(n) : bytes(n);
            case CHAR:
            case VARCHAR:
            case TINYTEXT:
            case TEXT:
            case MEDIUMTEXT:
            case LONGTEXT:
                if (c.charset() == null) {
                    throw unsupported(table, c, "character column without a character set");
                }
                if (MySqlCharsets.BINARY.equals(c.charset())) {
                    return bytes(n);
                }
                if (MySqlCharsets.javaCharset(c.charset()) == null) {
                    throw unsupported(
                            table,
                            c,
                            "character set "
                                    + c.charset()
                                    + " has no Java decoder; convert the column to utf8mb4");
                }
                return string(n);
            case BINARY:
            case VARBINARY:
            case TINYBLOB:
            case BLOB:
            case MEDIUMBLOB:
            case LONGBLOB:
                return bytes(n);
            case ENUM:
            case SET:
            case JSON:
                return string(n);
            case DATE:
                return new DateType(n);
            case TIME:
                // Flink's TIME holds neither negative values nor more than 24 hours.
                return new BigIntType(n);
            case DATETIME:
                return new TimestampType(n, fsp(table, c));
            case TIMESTAMP:
                return new LocalZonedTimestampType(n, fsp(table, c));
            case YEAR:
                return new IntType(n);
            default:
                throw unsupported(table, c, "no mapping");
        }
    }

    private static int fsp(TableId table, ColumnSchema.ColumnFacts c) {
        if (c.precision() < 0 || c.precision() > 6) {
            throw unsupported(table, c, "fractional seconds precision out of range");
        }
        return c.precision();
    }

    private static LogicalType string(boolean nullable) {
        return new VarCharType(nullable, VarCharType.MAX_LENGTH);
    }

    private static LogicalType bytes(boolean nullable) {
        return new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
    }

    static CapstanHaltException unsupported(TableId table, ColumnSchema.ColumnFacts c, String why) {
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_COLUMN_TYPE,
                "table "
                        + table
                        + " column "
                        + c.name()
                        + " ("
                        + c.type()
                        + "): "
                        + why
                        + ". Remedy: change the column type (see docs/types.md) or exclude the"
                        + " table from capture.");
    }
}
