package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlCharsets;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.table.types.logical.DecimalType;

import java.nio.charset.Charset;

/** Chooses the converter of a column from its schema (once per schema, never per row). */
final class ColumnConverters {

    private ColumnConverters() {}

    static ColumnConverter forColumn(TableId table, ColumnSchema c, SpatialValueForm spatial) {
        if (c.type().isSpatial()) {
            return new TextConverters.Spatial(spatial);
        }
        switch (c.type()) {
            case TINYINT:
                return c.unsigned()
                        ? new NumericConverters.SmallInt(true)
                        : new NumericConverters.TinyInt();
            case SMALLINT:
                return c.unsigned()
                        ? new NumericConverters.Int(16)
                        : new NumericConverters.SmallInt(false);
            case MEDIUMINT:
                return new NumericConverters.Int(c.unsigned() ? 24 : 0);
            case INT:
                return c.unsigned()
                        ? new NumericConverters.BigInt(true)
                        : new NumericConverters.Int(0);
            case BIGINT:
                return c.unsigned()
                        ? new NumericConverters.UnsignedBigInt()
                        : new NumericConverters.BigInt(false);
            case DECIMAL:
                return new NumericConverters.Decimal(
                        c.precision(), c.scale(), c.precision() > DecimalType.MAX_PRECISION);
            case FLOAT:
                return new NumericConverters.Float();
            case DOUBLE:
                return new NumericConverters.Double();
            case BIT:
                return c.length() == 1
                        ? new TextConverters.Bit1()
                        : new TextConverters.BitBytes(c.length());
            case CHAR:
            case VARCHAR:
            case TINYTEXT:
            case TEXT:
            case MEDIUMTEXT:
            case LONGTEXT:
                if (c.isBinaryCharset()) {
                    return new TextConverters.Bytes(0);
                }
                Charset charset = MySqlCharsets.javaCharset(c.charset());
                if (charset == null) {
                    throw new CapstanHaltException(
                            HaltReason.UNSUPPORTED_COLUMN_TYPE,
                            "table "
                                    + table
                                    + " column "
                                    + c.name()
                                    + ": character set "
                                    + c.charset()
                                    + " has no Java decoder. Remedy: convert the"
                                    + " column to utf8mb4 or exclude the table.");
                }
                boolean strip =
                        c.type() == io.capstan.flink.mysql.schema.MySqlType.CHAR
                                && MySqlCharsets.isAsciiCompatible(c.charset());
                return new TextConverters.Text(charset, strip);
            case BINARY:
                return new TextConverters.Bytes(c.length());
            case VARBINARY:
            case TINYBLOB:
            case BLOB:
            case MEDIUMBLOB:
            case LONGBLOB:
                return new TextConverters.Bytes(0);
            case ENUM:
                return new TextConverters.Enum(c.enumValues());
            case SET:
                return new TextConverters.Set(c.setValues());
            case JSON:
                return new JsonConverter();
            case DATE:
                return new TemporalConverters.Date();
            case TIME:
                return new TemporalConverters.Time();
            case DATETIME:
            case TIMESTAMP:
                return new TemporalConverters.DateTime();
            case YEAR:
                return new TemporalConverters.Year();
            default:
                throw new CapstanHaltException(
                        HaltReason.UNSUPPORTED_COLUMN_TYPE,
                        "table "
                                + table
                                + " column "
                                + c.name()
                                + ": no converter for "
                                + c.type()
                                + ". Remedy: change the column type or exclude the table.");
        }
    }
}
