package io.capstan.flink.mysql.e2e.testframe;

import org.apache.flink.connector.testframe.external.ExternalSystemSplitDataWriter;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One "split" of the framework in MySQL: a table of its own, {@code (seq BIGINT AUTO_INCREMENT
 * PRIMARY KEY, line VARCHAR)}. Rows are inserted in the order given, so the primary-key order (a
 * snapshot's order) and the commit order (the binlog's order) are both the order the framework
 * expects per split. Records go in as transactions of 1 to 10 rows, so the binlog has multi-row
 * transactions and a checkpoint can fall inside one.
 */
final class SplitTable implements ExternalSystemSplitDataWriter<String> {

    /** The position of {@code line} in the row the deserializer receives. */
    static final int LINE_FIELD = 1;

    private final Connection connection;
    private final String table;

    private SplitTable(Connection connection, String table) {
        this.connection = connection;
        this.table = table;
    }

    /** Creates the table (a new split) and a writer for it. */
    static SplitTable create(MySqlExternalSystem system, String table) {
        try {
            Connection c = system.openRootConnection();
            try (Statement s = c.createStatement()) {
                s.execute(
                        "CREATE TABLE `"
                                + table
                                + "` (seq BIGINT AUTO_INCREMENT PRIMARY KEY,"
                                + " line VARCHAR(200) CHARACTER SET utf8mb4 NOT NULL)");
            }
            c.setAutoCommit(false);
            return new SplitTable(c, table);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create split table " + table, e);
        }
    }

    @Override
    public void writeRecords(List<String> records) {
        String sql = "INSERT INTO `" + table + "` (line) VALUES (?)";
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
            int i = 0;
            while (i < records.size()) {
                int end = Math.min(records.size(), i + 1 + ThreadLocalRandom.current().nextInt(10));
                for (; i < end; i++) {
                    insert.setString(1, records.get(i));
                    insert.executeUpdate();
                }
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot write to split table " + table, e);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    @Override
    public String toString() {
        return table;
    }
}
