package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a table's columns and unique indexes from information_schema (needs SELECT on it), and for
 * each collation of its CHAR/VARCHAR columns how the server weighs values ({@link KeyCollation}).
 */
@Internal
public final class JdbcTableKeyMetadataReader {

    private JdbcTableKeyMetadataReader() {}

    public static TableKeyMetadata read(Connection conn, TableId table) throws SQLException {
        List<TableKeyMetadata.Column> columns = new ArrayList<>();
        Map<String, String> textCollations = new HashMap<>(); // collation -> character set
        try (PreparedStatement ps =
                conn.prepareStatement(
                        "SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE,"
                                + " NUMERIC_PRECISION, NUMERIC_SCALE, CHARACTER_OCTET_LENGTH,"
                                + " DATETIME_PRECISION, COLLATION_NAME, CHARACTER_SET_NAME"
                                + " FROM information_schema.COLUMNS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                + " ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, table.database());
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (isCharOrVarchar(rs.getString(3)) && rs.getString(10) != null) {
                        textCollations.put(rs.getString(10), rs.getString(11));
                    }
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
        if (!textCollations.isEmpty()) {
            Map<String, KeyCollation> weighings = new HashMap<>();
            for (Map.Entry<String, String> e : textCollations.entrySet()) {
                weighings.put(e.getKey(), weighing(conn, e.getKey(), e.getValue()));
            }
            columns = withWeighings(columns, weighings);
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

    private static boolean isCharOrVarchar(String dataType) {
        return "char".equalsIgnoreCase(dataType) || "varchar".equalsIgnoreCase(dataType);
    }

    /**
     * How the server weighs values of {@code collation}: its pad attribute (on MariaDB, whose
     * {@code COLLATIONS} table lacks the column, from the name: its NO PAD collations are the
     * {@code nopad} ones) and the weight of one space; null when the server cannot say (no
     * PAD_ATTRIBUTE before MySQL 8.0, or no weight), and then a key column in it is refused by
     * name.
     */
    @Nullable
    static KeyCollation weighing(Connection conn, String collation, String charset)
            throws SQLException {
        if (!KeyCollation.isPlainName(collation) || !KeyCollation.isPlainName(charset)) {
            return null; // never put into SQL text
        }
        // MariaDB's COLLATIONS has no PAD_ATTRIBUTE: its NO PAD collations say so in their name
        String padAttribute =
                ServerDialect.of(conn) == ServerDialect.MARIADB
                        ? "IF(COLLATION_NAME LIKE '%nopad%', 'NO PAD', 'PAD SPACE')"
                        : "PAD_ATTRIBUTE";
        String sql =
                "SELECT "
                        + padAttribute
                        + ", "
                        + KeyCollation.weightOf(charset, collation, "' '")
                        + " FROM information_schema.COLLATIONS WHERE COLLATION_NAME = ?";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, collation);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null || rs.getBytes(2) == null) {
                    return null;
                }
                byte[] space = rs.getBytes(2);
                if (space.length == 0) {
                    return null;
                }
                return new KeyCollation(
                        collation, charset, "PAD SPACE".equalsIgnoreCase(rs.getString(1)), space);
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1054) { // ER_BAD_FIELD_ERROR: no PAD_ATTRIBUTE (before 8.0)
                return null;
            }
            throw e;
        }
    }

    private static List<TableKeyMetadata.Column> withWeighings(
            List<TableKeyMetadata.Column> columns, Map<String, KeyCollation> weighings) {
        List<TableKeyMetadata.Column> out = new ArrayList<>(columns.size());
        for (TableKeyMetadata.Column c : columns) {
            out.add(c.withWeighing(weighings.get(c.collationName())));
        }
        return out;
    }
}
