package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;

import java.io.Serializable;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;

/**
 * Converts rows of one table to {@link GenericRowData} (row kind INSERT; callers set the kind) from
 * the binlog or from JDBC, through one {@link ColumnConverter} per column. Both paths give equal
 * rows for the same stored row. Errors name the table, column and type, never a value.
 */
@Internal
public final class RowConverter implements Serializable {
    private static final long serialVersionUID = 1L;

    private final TableSchema schema;
    private final ColumnConverter[] converters;

    /** 0..n-1: a full read, where result-set column i + 1 is schema column i. */
    private final int[] allColumns;

    private RowConverter(TableSchema schema, SpatialValueForm spatial) {
        this.schema = schema;
        this.converters = new ColumnConverter[schema.columnCount()];
        this.allColumns = new int[converters.length];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = ColumnConverters.forColumn(schema.tableId(), schema.column(i), spatial);
            allColumns[i] = i;
        }
    }

    /** Builds the converters of every column of the schema; spatial values as standard WKB. */
    public static RowConverter of(TableSchema schema) {
        return new RowConverter(schema, SpatialValueForm.WKB);
    }

    /** Builds the converters of every column of the schema, spatial values in {@code spatial}. */
    public static RowConverter of(TableSchema schema, SpatialValueForm spatial) {
        return new RowConverter(schema, Objects.requireNonNull(spatial, "spatial"));
    }

    public TableSchema schema() {
        return schema;
    }

    /**
     * The SELECT list item that reads schema column {@code column} for {@link #fromJdbc}: its
     * back-quoted name, or an expression over it where the name alone would read fewer digits than
     * are stored (FLOAT).
     */
    public String selectExpression(int column) {
        String quoted = '`' + schema.column(column).name().replace("`", "``") + '`';
        return converters[column].selectExpression(quoted);
    }

    /**
     * Converts one row image as {@link BinlogEventDeserializers#create()} decodes it (a full row
     * image: one cell per column, in column order).
     *
     * @throws CapstanHaltException UNDECODABLE_COLUMN naming the table and column
     */
    public GenericRowData fromBinlog(Serializable[] row) {
        if (row.length != converters.length) {
            throw new CapstanHaltException(
                    HaltReason.UNDECODABLE_COLUMN,
                    "table "
                            + schema.tableId()
                            + ": a binlog row image has "
                            + row.length
                            + " columns but the table map has "
                            + converters.length
                            + ". Remedy: set binlog_row_image = FULL.");
        }
        GenericRowData out = new GenericRowData(converters.length);
        for (int i = 0; i < converters.length; i++) {
            Serializable raw = row[i];
            if (raw != null) {
                try {
                    out.setField(i, converters[i].fromBinlog(raw));
                } catch (RuntimeException e) {
                    throw undecodable(
                            i, "binlog value of Java type " + raw.getClass().getSimpleName(), e);
                }
            }
        }
        return out;
    }

    /**
     * Converts the current row of {@code rs}, whose column {@code i + 1} is schema column {@code
     * i}, selected as {@link #selectExpression}.
     *
     * @throws SQLException if the driver fails; its message is replaced (it may quote a value)
     */
    public GenericRowData fromJdbc(ResultSet rs) throws SQLException {
        return fromJdbc(rs, allColumns);
    }

    /**
     * Converts the current row of {@code rs}, whose column {@code j + 1} is schema column {@code
     * columns[j]}; the row has every schema column, those not read are null. For reads of a column
     * subset (projection push-down).
     *
     * @throws SQLException if the driver fails; its message is replaced (it may quote a value)
     */
    public GenericRowData fromJdbc(ResultSet rs, int[] columns) throws SQLException {
        GenericRowData out = new GenericRowData(converters.length);
        for (int j = 0; j < columns.length; j++) {
            int i = columns[j];
            try {
                out.setField(i, converters[i].fromJdbc(rs, j + 1));
            } catch (SQLException e) {
                throw new SQLException(
                        "table "
                                + schema.tableId()
                                + " column "
                                + schema.column(i).name()
                                + ": JDBC read failed ("
                                + e.getClass().getSimpleName()
                                + ")",
                        e.getSQLState(),
                        e.getErrorCode());
            } catch (RuntimeException e) {
                throw undecodable(i, "JDBC value", e);
            }
        }
        return out;
    }

    private CapstanHaltException undecodable(int column, String what, RuntimeException cause) {
        ColumnSchema c = schema.column(column);
        // The cause is not chained: driver and JDK messages may quote the value (the no-values
        // rule).
        return new CapstanHaltException(
                HaltReason.UNDECODABLE_COLUMN,
                "table "
                        + schema.tableId()
                        + " column "
                        + c.name()
                        + " ("
                        + c.type()
                        + "): the "
                        + what
                        + " cannot be decoded ("
                        + cause.getClass().getSimpleName()
                        + "). Remedy: check that the table's definition matches docs/types.md.");
    }

    @Override
    public String toString() {
        return "RowConverter{" + schema.tableId() + ", " + converters.length + " columns}";
    }
}
