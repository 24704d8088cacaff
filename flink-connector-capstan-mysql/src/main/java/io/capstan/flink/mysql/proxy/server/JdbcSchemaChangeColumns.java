package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.binlog.SchemaChangeEvents;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link SchemaChangeEvents.ColumnsSource} over JDBC: the table's columns ({@link
 * JdbcSchemaReader}), then the binlog's end ({@code SHOW BINARY LOG STATUS}, before 8.2 {@code SHOW
 * MASTER STATUS}), then the statements logged between the DDL and that end ({@code SHOW BINLOG
 * EVENTS}, a page at a time): if one touches the table, the columns read are not those right after
 * the DDL. One connection per schema change (they are rare); the statements' text stays in memory
 * (the no-values rule).
 */
@Internal
public final class JdbcSchemaChangeColumns implements SchemaChangeEvents.ColumnsSource {
    private static final long serialVersionUID = 1L;

    private static final int PAGE = 1000;

    private final MySqlConnectionConfig config;

    public JdbcSchemaChangeColumns(MySqlConnectionConfig config) {
        this.config = Objects.requireNonNull(config);
    }

    @Override
    public Optional<TableSchema> columnsAfter(TableId table, String ddlFile, long ddlEnd)
            throws IOException {
        Connection c = null;
        try {
            c = JdbcConnections.open(config);
            TableSchema columns = JdbcSchemaReader.read(c, table);
            String[] end = binlogEnd(c); // read after the columns: it covers every DDL they show
            if (touchedBetween(c, table, ddlFile, ddlEnd, end[0], Long.parseLong(end[1]))) {
                return Optional.empty();
            }
            return Optional.of(columns);
        } catch (SQLException | RuntimeException e) {
            // the message may quote SQL: only the class travels (the no-values rule)
            throw new IOException(
                    "reading the columns of " + table + " failed (" + e.getClass().getName() + ")");
        } finally {
            JdbcConnections.closeQuietly(c);
        }
    }

    private static String[] binlogEnd(Connection c) throws SQLException {
        SQLException first;
        try {
            return end(c, "SHOW BINARY LOG STATUS");
        } catch (SQLException e) {
            first = e; // before MySQL 8.2
        }
        try {
            return end(c, "SHOW MASTER STATUS");
        } catch (SQLException e) {
            e.addSuppressed(first);
            throw e;
        }
    }

    private static String[] end(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException("the server reports no binary log");
            }
            return new String[] {rs.getString(1), rs.getString(2)};
        }
    }

    /**
     * Whether a statement logged from ({@code file}, {@code from}) to the end touches the table.
     */
    private static boolean touchedBetween(
            Connection c, TableId table, String file, long from, String endFile, long endPos)
            throws SQLException {
        List<String> files = binaryLogs(c);
        int first = files.indexOf(file);
        int last = files.indexOf(endFile);
        if (first < 0 || last < first) {
            return true; // purged or unknown: nothing proves the read exact
        }
        for (int i = first; i <= last; i++) {
            String f = files.get(i);
            long pos = i == first ? from : 4;
            while (true) {
                int rows = 0;
                try (Statement s = c.createStatement();
                        ResultSet rs =
                                s.executeQuery(
                                        "SHOW BINLOG EVENTS IN '"
                                                + safe(f)
                                                + "' FROM "
                                                + pos
                                                + " LIMIT "
                                                + PAGE)) {
                    while (rs.next()) {
                        rows++;
                        long at = rs.getLong("Pos");
                        if (i == last && at >= endPos) {
                            return false;
                        }
                        if ("Query".equalsIgnoreCase(rs.getString("Event_type"))
                                && SchemaChangeEvents.loggedStatementTouches(
                                        rs.getString("Info"), table)) {
                            return true;
                        }
                        pos = rs.getLong("End_log_pos");
                    }
                }
                if (rows < PAGE) {
                    break;
                }
            }
        }
        return false;
    }

    private static List<String> binaryLogs(Connection c) throws SQLException {
        List<String> files = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                files.add(rs.getString(1));
            }
        }
        return files;
    }

    private static String safe(String file) throws SQLException {
        if (!file.matches("[A-Za-z0-9._/\\-]+")) {
            throw new SQLException("a binary log name this connector does not quote");
        }
        return file;
    }
}
