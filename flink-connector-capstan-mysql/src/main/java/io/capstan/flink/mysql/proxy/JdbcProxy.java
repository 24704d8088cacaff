package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.ServerFacts;
import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.MariaDbOwnTypes;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import io.capstan.flink.mysql.snapshot.plan.BoundaryQueries;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Every question the connector asks MySQL over JDBC, behind one interface (as Flink's Kinesis
 * source puts its remote calls behind a stream proxy): the enumerator's planners and the reader's
 * fetchers ask it and never open a connection themselves, so they run against an in-memory fake in
 * unit tests. The server's implementation is {@code proxy.server.ServerJdbcProxy}.
 *
 * <p>Used by one thread at a time ({@link #close} may come from another). It connects on first use
 * and keeps the connection; after a failed call it drops it, so the next call reconnects. {@link
 * #close} releases the connection; a later call opens a new one. Failures are {@link IOException}s
 * naming the operation and table, never a value (the no-values rule); halts (an unsupported column
 * type) are {@code CapstanHaltException}s.
 *
 * <p>The chunk boundaries of the planner ({@link BoundaryQueries}) are asked on the same
 * connection.
 */
@Internal
public interface JdbcProxy extends BoundaryQueries, AutoCloseable {

    /** {@code host:port}, for messages (never credentials). */
    String serverAddress();

    /** Every base table outside the system schemas (never a view), sorted by database and name. */
    List<TableId> baseTables() throws IOException;

    /**
     * MariaDB's system-versioned tables ({@code TABLE_TYPE = 'SYSTEM VERSIONED'}) outside the
     * system schemas, sorted: not among {@link #baseTables()}; none on MySQL.
     */
    List<TableId> systemVersionedTables() throws IOException;

    /**
     * The columns of MariaDB's UUID, INET4 and INET6 in {@code databases}, in table and column
     * order: its binlog writes them as plain binary; none on MySQL (not asked).
     */
    List<MariaDbOwnTypes.Column> mariaDbOwnTypeColumns(Collection<String> databases)
            throws IOException;

    /** The server's version, the settings the preflight checks and the account's privileges. */
    ServerFacts serverFacts() throws IOException;

    /** {@code gtid_executed} and {@code gtid_purged}, read together. */
    ServerGtidState gtidState() throws IOException;

    /**
     * The GTID set of the transactions before {@code binlogFile}:{@code position} (a {@code
     * specific-offset} start given as a file and position, translated when a new job plans its
     * binlog split). Halts ({@code data_gap}, {@code invalid_start_position}) when the server no
     * longer has the file or the position does not denote an exact start.
     */
    GtidSet gtidSetBefore(String binlogFile, long position) throws IOException;

    /** {@code gtid_executed} alone (the lag gauge's poll). */
    GtidSet gtidExecuted() throws IOException;

    /**
     * Every foreign key outside the system schemas that the account can see (those of tables it
     * holds a privilege on), sorted by child table and name.
     */
    List<ForeignKey> foreignKeys() throws IOException;

    /**
     * The tables outside the system schemas with at least one trigger the account can see (those of
     * tables it holds TRIGGER on).
     */
    Set<TableId> tablesWithTriggers() throws IOException;

    /** The table's columns in ordinal order and its primary key. */
    TableSchema tableSchema(TableId table) throws IOException;

    /** The table's storage engine as the server names it ({@code InnoDB}, {@code MyISAM}, ...). */
    String storageEngine(TableId table) throws IOException;

    /** The table's columns and unique indexes, from which the chunk key is chosen. */
    TableKeyMetadata keyMetadata(TableId table) throws IOException;

    /**
     * The server's sort weights ({@code WEIGHT_STRING}) of {@code texts} in {@code collation}, in
     * order: how a collated key of a binlog change is placed at the gate.
     */
    List<byte[]> keyWeights(KeyCollation collation, List<String> texts) throws IOException;

    /** A session reading chunks at their exact positions, with connections of its own. */
    ChunkSession openChunkSession(SnapshotReadOptions options);

    @Override
    void close();

    /**
     * From another thread: fails a call in flight at once and every later call, without waiting for
     * anything (a closing task must not wait behind a reconnect or a dead socket).
     */
    default void abort() {
        close();
    }
}
