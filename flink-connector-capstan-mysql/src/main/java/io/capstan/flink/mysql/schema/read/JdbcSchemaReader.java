package io.capstan.flink.mysql.schema.read;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a table's schema from {@code information_schema.COLUMNS} (columns in ordinal order) and
 * {@code information_schema.STATISTICS} (primary key in key order).
 */
@Internal
public final class JdbcSchemaReader {

    private static final String COLUMNS_SQL =
            "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, CHARACTER_MAXIMUM_LENGTH,"
                    + " NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION, CHARACTER_SET_NAME"
                    + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                    + " ORDER BY ORDINAL_POSITION";

    private static final String PRIMARY_KEY_SQL =
            "SELECT COLUMN_NAME FROM information_schema.STATISTICS"
                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY'"
                    + " ORDER BY SEQ_IN_INDEX";

    private JdbcSchemaReader() {}

    /**
     * @throws SQLException if the table does not exist or the server cannot be read
     * @throws CapstanHaltException UNSUPPORTED_COLUMN_TYPE naming the table and column
     */
    public static TableSchema read(Connection connection, TableId id) throws SQLException {
        List<ColumnSchema> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS_SQL)) {
            ps.setString(1, id.database());
            ps.setString(2, id.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(column(id, rs));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new SQLException("table " + id + " does not exist or is not visible to the user");
        }
        List<String> keyNames = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(PRIMARY_KEY_SQL)) {
            ps.setString(1, id.database());
            ps.setString(2, id.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keyNames.add(rs.getString(1));
                }
            }
        }
        int[] key = new int[keyNames.size()];
        for (int k = 0; k < key.length; k++) {
            key[k] = indexOf(columns, keyNames.get(k));
            if (key[k] < 0) {
                throw new SQLException(
                        "table "
                                + id
                                + ": primary key column "
                                + keyNames.get(k)
                                + " is not among the table's columns");
            }
        }
        return new TableSchema(id, columns, key);
    }

    private static int indexOf(List<ColumnSchema> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static ColumnSchema column(TableId id, ResultSet rs) throws SQLException {
        String name = rs.getString(1);
        String dataType = rs.getString(2);
        String columnType = rs.getString(3);
        MySqlType type = MySqlType.fromDataType(dataType);
        if (type == null) {
            throw new CapstanHaltException(
                    HaltReason.UNSUPPORTED_COLUMN_TYPE,
                    "table "
                            + id
                            + " column "
                            + name
                            + " has the type "
                            + dataType
                            + " which capstan-mysql does not decode. Remedy: change the column"
                            + " type (see docs/types.md)"
                            + MariaDbOwnTypes.remedy(dataType)
                            + " or exclude the table from capture.");
        }
        ColumnSchema.Builder b =
                ColumnSchema.builder(name, type)
                        .nullable("YES".equalsIgnoreCase(rs.getString(4)))
                        .unsigned(columnType.toLowerCase(Locale.ROOT).contains(" unsigned"))
                        .charset(rs.getString(9));
        long charLength = rs.getLong(5);
        long numericPrecision = rs.getLong(6);
        switch (type) {
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                b.length((int) charLength);
                break;
            case BIT:
                b.length((int) numericPrecision);
                break;
            case DECIMAL:
                b.precision((int) numericPrecision).scale(rs.getInt(7));
                break;
            case TIME:
            case DATETIME:
            case TIMESTAMP:
                b.precision(rs.getInt(8));
                break;
            case ENUM:
                b.enumValues(EnumLabels.parse(columnType));
                break;
            case SET:
                b.setValues(EnumLabels.parse(columnType));
                break;
            default:
                break;
        }
        return b.build(id);
    }
}
