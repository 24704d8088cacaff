package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.TableId;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The server's foreign keys and the tables with triggers, from {@code information_schema}, for
 * {@link ServerJdbcProxy}. Both list only what the account may see: constraints of tables it holds
 * a privilege on, triggers of tables it holds TRIGGER on.
 */
final class JdbcReferentialQueries {

    private static final String SYSTEM_SCHEMAS =
            "('mysql','information_schema','performance_schema','sys')";

    private JdbcReferentialQueries() {}

    static List<ForeignKey> foreignKeys(Connection c) throws SQLException {
        List<ForeignKey> out = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT k.TABLE_SCHEMA, k.TABLE_NAME, k.CONSTRAINT_NAME,"
                                        + " k.REFERENCED_TABLE_SCHEMA, k.REFERENCED_TABLE_NAME,"
                                        + " k.COLUMN_NAME, k.REFERENCED_COLUMN_NAME,"
                                        + " c.ORDINAL_POSITION, r.DELETE_RULE, r.UPDATE_RULE"
                                        + " FROM information_schema.KEY_COLUMN_USAGE k"
                                        + " JOIN information_schema.REFERENTIAL_CONSTRAINTS r"
                                        + " ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA"
                                        + " AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME"
                                        + " AND r.TABLE_NAME = k.TABLE_NAME"
                                        + " LEFT JOIN information_schema.COLUMNS c"
                                        + " ON c.TABLE_SCHEMA = k.REFERENCED_TABLE_SCHEMA"
                                        + " AND c.TABLE_NAME = k.REFERENCED_TABLE_NAME"
                                        + " AND c.COLUMN_NAME = k.REFERENCED_COLUMN_NAME"
                                        + " WHERE k.REFERENCED_TABLE_NAME IS NOT NULL"
                                        + " AND k.TABLE_SCHEMA NOT IN "
                                        + SYSTEM_SCHEMAS
                                        + " ORDER BY k.TABLE_SCHEMA, k.TABLE_NAME,"
                                        + " k.CONSTRAINT_NAME, k.ORDINAL_POSITION")) {
            Builder current = null;
            while (rs.next()) {
                TableId child = TableId.of(rs.getString(1), rs.getString(2));
                String name = rs.getString(3);
                if (current == null || !current.child.equals(child) || !current.name.equals(name)) {
                    if (current != null) {
                        out.add(current.build());
                    }
                    current =
                            new Builder(
                                    child,
                                    name,
                                    TableId.of(rs.getString(4), rs.getString(5)),
                                    ForeignKey.Rule.of(rs.getString(9)),
                                    ForeignKey.Rule.of(rs.getString(10)));
                }
                current.childColumns.add(rs.getString(6));
                current.parentColumns.add(rs.getString(7));
                long ordinal = rs.getLong(8);
                current.parentPositions.add(rs.wasNull() ? -1 : (int) ordinal - 1);
            }
            if (current != null) {
                out.add(current.build());
            }
        }
        return out;
    }

    static Set<TableId> tablesWithTriggers(Connection c) throws SQLException {
        Set<TableId> out = new TreeSet<>();
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT DISTINCT EVENT_OBJECT_SCHEMA, EVENT_OBJECT_TABLE"
                                        + " FROM information_schema.TRIGGERS"
                                        + " WHERE EVENT_OBJECT_SCHEMA NOT IN "
                                        + SYSTEM_SCHEMAS)) {
            while (rs.next()) {
                out.add(TableId.of(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    private static final class Builder {
        final TableId child;
        final String name;
        final TableId parent;
        final ForeignKey.Rule onDelete;
        final ForeignKey.Rule onUpdate;
        final List<String> childColumns = new ArrayList<>();
        final List<String> parentColumns = new ArrayList<>();
        final List<Integer> parentPositions = new ArrayList<>();

        Builder(
                TableId child,
                String name,
                TableId parent,
                ForeignKey.Rule onDelete,
                ForeignKey.Rule onUpdate) {
            this.child = child;
            this.name = name;
            this.parent = parent;
            this.onDelete = onDelete;
            this.onUpdate = onUpdate;
        }

        ForeignKey build() {
            return new ForeignKey(
                    child,
                    name,
                    parent,
                    childColumns,
                    parentColumns,
                    parentPositions,
                    onDelete,
                    onUpdate);
        }
    }
}
