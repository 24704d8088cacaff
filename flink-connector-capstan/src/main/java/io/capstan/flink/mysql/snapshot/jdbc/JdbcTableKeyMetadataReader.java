package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a table's columns and unique indexes from information_schema (needs SELECT on it). */
@Internal
public final class JdbcTableKeyMetadataReader {

    private JdbcTableKeyMetadataReader() {}

    public static TableKeyMetadata read(Connection conn, TableId table) throws SQLException {
        List<TableKeyMetadata.Column> columns = new ArrayList<>();
        try (PreparedStatement ps =
                conn.prepareStatement(
                        "SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE,"
                                + " NUMERIC_PRECISION, NUMERIC_SCALE, CHARACTER_OCTET_LENGTH,"
                                + " DATETIME_PRECISION, COLLATION_NAME FROM information_schema.COLUMNS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                + " ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, table.database());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(
                            new TableKeyMetadata.Column(
                                    rs.getString(1),
                                    rs.getInt(2),
                                    rs.getString(3),
                                    rs.getString(4),
                                    "YES".equalsIgnoreCase(rs.getString(5)),
                                    rs.getLong(6),
                                    rs.getLong(7),
                                    rs.getLong(8),
                                    rs.getLong(9),
                                    rs.getString(10)));
                }
            }
        }
        Map<String, List<String>> indexColumns = new LinkedHashMap<>();
        Map<String, Boolean> unique = new LinkedHashMap<>();
        Map<String, Boolean> prefix = new LinkedHashMap<>();
        try (PreparedStatement ps =
                conn.prepareStatement(
                        "SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART"
                                + " FROM information_schema.STATISTICS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                + " ORDER BY INDEX_NAME, SEQ_IN_INDEX")) {
            ps.setString(1, table.database());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    boolean isUnique = rs.getInt(2) == 0;
                    String column = rs.getString(3); // NULL for a functional key part
                    rs.getObject(4);
                    boolean isPrefix = !rs.wasNull() || column == null;
                    indexColumns
                            .computeIfAbsent(name, k -> new ArrayList<>())
                            .add(column == null ? "" : column);
                    unique.put(name, isUnique);
                    prefix.merge(name, isPrefix, Boolean::logicalOr);
                }
            }
        }
        List<TableKeyMetadata.Index> indexes = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : indexColumns.entrySet()) {
            indexes.add(
                    new TableKeyMetadata.Index(
                            e.getKey(),
                            unique.get(e.getKey()),
                            e.getValue(),
                            prefix.get(e.getKey())));
        }
        return new TableKeyMetadata(table, columns, indexes);
    }
}
