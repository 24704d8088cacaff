package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.binlog.BinlogFiles;
import io.capstan.flink.mysql.connect.ServerDialect;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Connection B's statements while A holds the table lock, sent as one multi-statement so that
 * writers wait one round trip for them (docs/snapshot.md, step 2): start the read view, read G,
 * take B's metadata lock on the table without waiting for it long, read the table's definition.
 * Also reads their results into a {@link ReadView}.
 *
 * <p>G is the server's {@code gtid_executed} when {@code gtid_mode} is {@code ON}; on a server
 * without GTIDs it is every binlog position before {@code SHOW MASTER STATUS}'s, read right after
 * the multi-statement while the lock is still held (docs/adr/0012): under the lock no transaction
 * on the table is open, so each one that changed it lies before that position and is in the read
 * view, each later one lies after it. On MariaDB G is {@code @@gtid_binlog_state} under {@code
 * gtid_strict_mode} (docs/adr/0013, decision 6), binlog positions without it ({@link
 * ServerDialect}); its transactions too are written to the binary log before their engine commit,
 * and a write of the locked table waits for the lock (pinned on a real MariaDB by the connector's
 * tests).
 */
@Internal
public final class ReadViewStatements {

    /**
     * How long B may wait for its metadata lock on the table while A holds the table lock. Under
     * A's lock B only waits if a DDL queued for the table after A locked it (pending exclusive
     * requests go first), and that DDL waits for A, which waits for B: without a bound nothing
     * moves until a lock_wait_timeout of a year (ADR 0004). So B gives up after this long.
     */
    private static final Duration METADATA_LOCK_PATIENCE = Duration.ofMillis(100);

    /** SHOW CREATE TABLE's AUTO_INCREMENT counter moves with every insert; it is not the schema. */
    private static final Pattern AUTO_INCREMENT = Pattern.compile(" AUTO_INCREMENT=\\d+");

    private ReadViewStatements() {}

    /**
     * The multi-statement, exactly as the chunk reader sends it (the benchmark's lock-window probe
     * times this text).
     */
    public static String underLock(TableId table, ServerDialect dialect) {
        return "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY"
                + "; SELECT "
                + dialect.gtidExecuted()
                + ", "
                + dialect.gtidMode()
                + ", "
                + dialect.serverIdentityExpression()
                + "; "
                + dialect.boundedTableTouch(table.quoted(), METADATA_LOCK_PATIENCE)
                + "; SHOW CREATE TABLE "
                + table.quoted();
    }

    /**
     * Sends the statements on B and reads G and the definition. A queued DDL makes it fail with a
     * statement timeout (the metadata lock's bounded wait); the read view is then open and the
     * caller rolls it back.
     */
    static ReadView open(Connection snapshotConnection, TableId table) throws SQLException {
        try (Statement st = snapshotConnection.createStatement()) {
            st.setEscapeProcessing(false);
            ServerDialect dialect = ServerDialect.of(snapshotConnection);
            st.execute(underLock(table, dialect)); // START: a count
            String executed;
            String mode;
            String uuid;
            try (ResultSet variables = nextResultSet(st)) {
                variables.next();
                executed = variables.getString(1);
                mode = variables.getString(2);
                uuid = ServerDialect.serverIdentity(variables.getString(3));
            }
            nextResultSet(st).close(); // SELECT 1 ... LIMIT 0: only its metadata lock matters
            String definition = definition(nextResultSet(st));
            GtidSet gtidSet =
                    ServerDialect.gtidsOn(mode)
                            ? dialect.gtidSet(executed)
                            : positionsBefore(snapshotConnection, uuid);
            return new ReadView(gtidSet, definition);
        }
    }

    private static ResultSet nextResultSet(Statement st) throws SQLException {
        if (!st.getMoreResults()) {
            throw new SQLException(
                    "a statement of the read view's multi-statement returned no result set");
        }
        return st.getResultSet();
    }

    /**
     * G on a server without GTIDs: every position before the current one, read in a round trip of
     * its own (the caller still holds the lock), so that a server with GTIDs pays nothing for it.
     */
    private static GtidSet positionsBefore(Connection c, String serverUuid) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet masterStatus = st.executeQuery("SHOW MASTER STATUS")) {
            if (!masterStatus.next()) {
                throw new SQLException("SHOW MASTER STATUS returned no row (binary log off?)");
            }
            return BinlogPositionAxis.of(serverUuid)
                    .before(BinlogFiles.currentPosition(masterStatus));
        }
    }

    /** SHOW CREATE TABLE's text without its AUTO_INCREMENT counter. */
    private static String definition(ResultSet showCreateTable) throws SQLException {
        try (showCreateTable) {
            if (!showCreateTable.next()) {
                throw new SQLException("SHOW CREATE TABLE returned no row");
            }
            return AUTO_INCREMENT.matcher(showCreateTable.getString(2)).replaceAll("");
        }
    }
}
