package io.capstan.flink.mysql.mariadb;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.convert.BinlogEventDeserializers;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.gtid.MariaDbGtidPosition;
import io.capstan.flink.mysql.testing.ConnectorConfigs;
import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.ReplicationSetup;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.AnnotateRowsEventData;
import com.github.shyiko.mysql.binlog.event.BinlogCheckpointEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.network.ServerException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A learning test: the facts about MariaDB 10.11 and the binlog library that the design of MariaDB
 * GTID positions (docs/adr/0013-mariadb-gtid-positions.md) rests on, pinned on Debian's real {@code
 * mariadbd}, read with the binlog library in the connector's own deserializer configuration ({@link
 * BinlogEventDeserializers}). Each method name is one fact; if a MariaDB or library upgrade breaks
 * one, the ADR's decision that cites it must be revisited.
 *
 * <p>One server for the class (server id {@value #SERVER_ID}, default domain 1, strict mode, row
 * binlog with full row metadata). Each method reads the position before it writes and uses
 * replication domains of its own where it needs them, so the methods do not depend on their order.
 * The facts about replication and purged binary logs start servers of their own ({@link
 * MariaDbServer#startForCapture}, domain 0, strict mode; {@link ReplicationSetup}). Needs {@code
 * mariadb-server-core}; without it the class fails with the install command.
 */
class MariaDbBinlogFactsIT {

    private static final long SERVER_ID = 7;
    private static final long OTHER_SERVER_ID = 9;
    private static final int PRIMARY_SERVER_ID = 11;
    private static final int REPLICA_SERVER_ID = 12;
    private static final int PURGING_SERVER_ID = 13;
    private static final Duration REPLICATION_WAIT = Duration.ofSeconds(30);
    private static final int ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236;
    private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    private static MariaDbServer server;

    /** The server of the purge facts, which only read it: written and purged once, on first use. */
    private static MySqlServer purging;

    private static PurgedHistory purgedHistory;

    @BeforeAll
    static void startMariaDb() throws Exception {
        if (!MariaDbServer.isInstalled()) {
            throw new IllegalStateException(MariaDbServer.MISSING);
        }
        server =
                MariaDbServer.start(
                        List.of(
                                "--log-bin=mariadb-bin",
                                "--binlog-format=ROW",
                                "--binlog-row-image=FULL",
                                "--binlog-row-metadata=FULL",
                                "--binlog-annotate-row-events=ON",
                                "--gtid-strict-mode=ON",
                                "--server-id=" + SERVER_ID,
                                "--gtid-domain-id=1"));
        sql(
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders"
                        + " (id BIGINT PRIMARY KEY, note VARCHAR(20), qty INT UNSIGNED)",
                "CREATE TABLE shop.items (id BIGINT PRIMARY KEY)");
    }

    @AfterAll
    static void stopMariaDb() {
        if (server != null) {
            server.close();
        }
        if (purging != null) {
            purging.close();
        }
    }

    private static synchronized PurgedHistory purgedHistory() throws Exception {
        if (purgedHistory == null) {
            purging = MariaDbServer.startForCapture(PURGING_SERVER_ID, "--gtid-strict-mode=ON");
            purgedHistory = writeAndPurge(purging);
        }
        return purgedHistory;
    }

    @Test
    void aDumpOpensWithRotateFormatDescriptionGtidListCheckpointThenTheStartPosition()
            throws Exception {
        String start = binlogPos();
        long id = insert(1, "INSERT INTO shop.orders VALUES (%d, 'x', 1)");

        List<Event> events = dump(start, false, untilRowWith(id)).events;

        assertThat(types(events.subList(0, 5)))
                .containsExactly(
                        EventType.ROTATE,
                        EventType.FORMAT_DESCRIPTION,
                        EventType.MARIADB_GTID_LIST,
                        EventType.BINLOG_CHECKPOINT,
                        EventType.MARIADB_GTID_LIST);
        assertThat(isArtificial(events.get(0))).isTrue();
        assertThat(((BinlogCheckpointEventData) events.get(3).getData()).getLogFileName())
                .isEqualTo("mariadb-bin.000001");
        // then the server's own GTID lists (artificial, not in the file, where its scan for the
        // position stands: not the position itself when several domains are involved)
        List<Event> beforeFirstGtid = events.subList(4, events.size() - afterStart(events).size());
        assertThat(beforeFirstGtid)
                .isNotEmpty()
                .allSatisfy(
                        e -> {
                            assertThat(e.getHeader().getEventType())
                                    .isEqualTo(EventType.MARIADB_GTID_LIST);
                            assertThat(isArtificial(e)).isTrue();
                        });
    }

    @Test
    void aTransactionIsMariaDbGtidTableMapsRowsAndXidWithoutBegin() throws Exception {
        String start = binlogPos();
        long seq = seqOf(start, 1) + 1;
        long id = nextId();
        sql(
                "BEGIN",
                "INSERT INTO shop.orders VALUES (" + id + ", 'a', 3)",
                "UPDATE shop.orders SET qty = 4 WHERE id = " + id,
                "DELETE FROM shop.orders WHERE id = " + id,
                "COMMIT");

        List<Event> events = afterStart(dump(start, false, untilXids(1)).events);

        assertThat(types(events))
                .containsExactly(
                        EventType.MARIADB_GTID,
                        EventType.TABLE_MAP,
                        EventType.WRITE_ROWS,
                        EventType.TABLE_MAP,
                        EventType.UPDATE_ROWS,
                        EventType.TABLE_MAP,
                        EventType.DELETE_ROWS,
                        EventType.XID);
        MariadbGtidEventData gtid = (MariadbGtidEventData) events.get(0).getData();
        assertThat(gtid.getDomainId()).isEqualTo(1);
        assertThat(gtid.getServerId()).isEqualTo(SERVER_ID);
        assertThat(gtid.getSequence()).isEqualTo(seq);
        assertThat(gtid).hasToString("1-" + SERVER_ID + "-" + seq);
        assertThat(gtid.getFlags() & MariadbGtidEventData.FL_TRANSACTIONAL).isNotZero();
        assertThat(gtid.getFlags() & MariadbGtidEventData.FL_STANDALONE).isZero();
        assertThat(events.get(0).getHeader().getServerId()).isEqualTo(SERVER_ID);
    }

    @Test
    void aDdlIsAStandaloneMariaDbGtidAndItsQueryWithoutXid() throws Exception {
        String start = binlogPos();
        sql("CREATE TABLE shop.ddl_" + nextId() + " (id INT PRIMARY KEY)");
        String end = binlogPos();

        List<Event> events =
                afterStart(dump(start, false, es -> types(es).contains(EventType.QUERY)).events);

        assertThat(types(events)).containsExactly(EventType.MARIADB_GTID, EventType.QUERY);
        MariadbGtidEventData gtid = (MariadbGtidEventData) events.get(0).getData();
        assertThat(gtid).hasToString(byDomain(end).get(1L));
        assertThat(gtid.getFlags() & MariadbGtidEventData.FL_STANDALONE).isNotZero();
        assertThat(gtid.getFlags() & MariadbGtidEventData.FL_DDL).isNotZero();
        assertThat(gtid.getFlags() & MariadbGtidEventData.FL_TRANSACTIONAL).isZero();
        assertThat(((QueryEventData) events.get(1).getData()).getSql()).startsWith("CREATE TABLE");
    }

    @Test
    void annotateRowsPrecedesEachTableMapOnlyWhenTheClientAsksForIt() throws Exception {
        String start = binlogPos();
        long id = insert(1, "INSERT INTO shop.orders VALUES (%d, 'annotated', 1)");

        List<Event> plain = afterStart(dump(start, false, untilRowWith(id)).events);
        List<Event> asked = afterStart(dump(start, true, untilRowWith(id)).events);

        assertThat(types(plain)).doesNotContain(EventType.ANNOTATE_ROWS);
        assertThat(types(asked))
                .containsSubsequence(
                        EventType.MARIADB_GTID,
                        EventType.ANNOTATE_ROWS,
                        EventType.TABLE_MAP,
                        EventType.WRITE_ROWS);
        // it carries the statement text: never to be logged (the no-values rule)
        AnnotateRowsEventData annotate =
                (AnnotateRowsEventData)
                        asked.get(types(asked).indexOf(EventType.ANNOTATE_ROWS)).getData();
        assertThat(annotate.getRowsQuery()).contains("'annotated'");
    }

    @Test
    void theTableMapCarriesColumnNamesUnderFullRowMetadata() throws Exception {
        String start = binlogPos();
        long id = insert(1, "INSERT INTO shop.orders VALUES (%d, 'n', 1)");

        List<Event> events = afterStart(dump(start, false, untilRowWith(id)).events);

        TableMapEventData map =
                (TableMapEventData)
                        events.get(types(events).indexOf(EventType.TABLE_MAP)).getData();
        assertThat(map.getTable()).isEqualTo("orders");
        assertThat(map.getEventMetadata().getColumnNames()).containsExactly("id", "note", "qty");
        assertThat(map.getEventMetadata().getSignedness().isEmpty()).isFalse(); // qty: UNSIGNED
    }

    @Test
    void aDumpFromAGtidPositionDeliversExactlyTheTransactionsAfterIt() throws Exception {
        long first = insert(1, "INSERT INTO shop.orders VALUES (%d, 'first', 1)");
        String afterFirst = binlogPos();
        long second = insert(1, "INSERT INTO shop.orders VALUES (%d, 'second', 1)");
        String secondGtid = byDomain(binlogPos()).get(1L);
        long third = insert(1, "INSERT INTO shop.orders VALUES (%d, 'third', 1)");
        String thirdGtid = byDomain(binlogPos()).get(1L);

        List<Event> events = afterStart(dump(afterFirst, false, untilRowWith(third)).events);

        assertThat(gtids(events)).containsExactly(secondGtid, thirdGtid);
        assertThat(insertedIds(events)).containsExactly(second, third).doesNotContain(first);
    }

    @Test
    void theServerPositionIsTheLastGtidOfEachDomainInDomainOrder() throws Exception {
        String before = binlogPos();
        long id = nextId();
        sql("SET SESSION gtid_domain_id = 20", insertOrder(id));
        sql("SET SESSION gtid_domain_id = 5", insertOrder(id + 1));
        sql(
                "SET SESSION gtid_domain_id = 5",
                "SET SESSION server_id = " + OTHER_SERVER_ID,
                insertOrder(id + 2));

        Map<Long, String> expected = byDomain(before);
        expected.put(5L, "5-" + OTHER_SERVER_ID + "-2");
        expected.put(20L, "20-" + SERVER_ID + "-1");
        // one GTID per domain, the last one (with its server id), domains in numeric order
        assertThat(binlogPos()).isEqualTo(String.join(",", expected.values()));
        // the state keeps the last GTID of each (domain, server id) pair
        assertThat(query("SELECT @@global.gtid_binlog_state").split(","))
                .contains("5-" + SERVER_ID + "-1", "5-" + OTHER_SERVER_ID + "-2");
    }

    @Test
    void gtidCurrentPosLeavesOutADomainWhoseLastGtidIsAnotherServersOnAPrimary() throws Exception {
        long id = nextId();
        sql("SET SESSION gtid_domain_id = 60", insertOrder(id));
        sql(
                "SET SESSION gtid_domain_id = 61",
                "SET SESSION server_id = " + OTHER_SERVER_ID,
                insertOrder(id + 1));

        assertThat(query("SELECT @@global.gtid_slave_pos")).isEmpty();
        assertThat(byDomain(binlogPos())).containsKeys(60L, 61L);
        Map<Long, String> current = byDomain(query("SELECT @@global.gtid_current_pos"));
        assertThat(current).containsEntry(60L, "60-" + SERVER_ID + "-1").doesNotContainKey(61L);
    }

    @Test
    void aDumpFromATwoDomainPositionResumesEachDomainAfterItsOwnGtid() throws Exception {
        long id = nextId();
        sql(insertOrder(id));
        sql("SET SESSION gtid_domain_id = 30", insertOrder(id + 1));
        String start = binlogPos();
        sql("SET SESSION gtid_domain_id = 30", insertOrder(id + 2));
        String domain30 = binlogPos();
        sql(insertOrder(id + 3));
        String domain1 = binlogPos();

        List<Event> events = afterStart(dump(start, false, untilRowWith(id + 3)).events);

        assertThat(gtids(events))
                .containsExactly(byDomain(domain30).get(30L), byDomain(domain1).get(1L));
        assertThat(insertedIds(events)).containsExactly(id + 2, id + 3);
    }

    @Test
    void theServerSkipsInEachDomainWhatThePositionHoldsEvenBetweenTransactionsItSends()
            throws Exception {
        long id = nextId();
        sql(insertOrder(id));
        String held = byDomain(binlogPos()).get(1L);
        sql(insertOrder(id + 1));
        String y = byDomain(binlogPos()).get(1L);
        sql("SET SESSION gtid_domain_id = 52", insertOrder(id + 2));
        Map<Long, String> start = byDomain(binlogPos());
        start.put(1L, held); // holds 52's transaction, not y, which the binlog has before it
        sql(insertOrder(id + 3));
        String z = byDomain(binlogPos()).get(1L);

        List<Event> events =
                afterStart(
                        dump(String.join(",", start.values()), false, untilRowWith(id + 3)).events);

        assertThat(gtids(events)).containsExactly(y, z);
        assertThat(insertedIds(events)).containsExactly(id + 1, id + 3);
    }

    @Test
    void aDomainLeftOutOfThePositionIsSentFromItsFirstTransaction() throws Exception {
        long id = nextId();
        sql("SET SESSION gtid_domain_id = 40", insertOrder(id));
        sql("SET SESSION gtid_domain_id = 40", insertOrder(id + 1));
        sql(insertOrder(id + 2));
        Map<Long, String> now = byDomain(binlogPos());
        now.remove(40L);

        List<Event> events =
                afterStart(
                        dump(String.join(",", now.values()), false, untilRowWith(id + 1)).events);

        assertThat(gtids(events)).containsExactly("40-7-1", "40-7-2");
        assertThat(insertedIds(events)).containsExactly(id, id + 1);
    }

    @Test
    void aPositionAheadOfTheServerIsRefusedWithError1236() throws Exception {
        String ahead = "1-" + SERVER_ID + "-" + (seqOf(binlogPos(), 1) + 100);

        Dump dump = dump(ahead, false, es -> false);

        assertThat(dump.failure).isInstanceOf(ServerException.class);
        ServerException e = (ServerException) dump.failure;
        assertThat(e.getErrorCode()).isEqualTo(ER_MASTER_FATAL_ERROR_READING_BINLOG);
        assertThat(e.getMessage()).contains(ahead).contains("not in the master's binlog");
    }

    @Test
    void aPositionWithAnotherServerIdAtASequenceTheServerWroteIsRefusedAsDiverged()
            throws Exception {
        insert(1, "INSERT INTO shop.orders VALUES (%d, 'x', 1)");
        long seq = seqOf(binlogPos(), 1);
        String foreign = "1-" + OTHER_SERVER_ID + "-" + (seq - 1);

        Dump dump = dump(foreign, false, es -> false);

        assertThat(dump.failure).isInstanceOf(ServerException.class);
        ServerException e = (ServerException) dump.failure;
        assertThat(e.getErrorCode()).isEqualTo(ER_MASTER_FATAL_ERROR_READING_BINLOG);
        assertThat(e.getMessage()).contains(foreign).contains("diverged");
    }

    @Test
    void aDomainTheServerNeverWroteIsNotRefused() throws Exception {
        String start = binlogPos();
        assertThat(byDomain(start)).doesNotContainKey(77L);
        long id = insert(1, "INSERT INTO shop.orders VALUES (%d, 'x', 1)");

        Dump dump = dump(start + ",77-" + SERVER_ID + "-5", false, untilRowWith(id));

        assertThat(dump.failure).isNull();
        assertThat(insertedIds(afterStart(dump.events))).containsExactly(id);
    }

    @Test
    void aWriteToATableLockedForReadWaitsSoThePositionReadUnderTheLockStaysPut() throws Exception {
        long id = nextId();
        try (Connection lock = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Connection writer = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Connection view = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Statement a = lock.createStatement();
                Statement w = writer.createStatement();
                Statement b = view.createStatement()) {
            a.execute("LOCK TABLES shop.orders READ");
            w.execute("SET SESSION lock_wait_timeout = 1");
            assertThatThrownBy(() -> w.execute(insertOrder(id)))
                    .isInstanceOfSatisfying(
                            SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(ER_LOCK_WAIT_TIMEOUT));
            w.execute("INSERT INTO shop.items VALUES (" + id + ")"); // another table: commits
            b.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
            String underLock = queryOn(b, "SELECT @@global.gtid_binlog_pos");
            long rowsUnderLock = countOrders(b);
            a.execute("UNLOCK TABLES");
            w.execute(insertOrder(id));

            assertThat(underLock).isNotEqualTo(binlogPos());
            assertThat(byDomain(binlogPos()).get(1L))
                    .isEqualTo("1-" + SERVER_ID + "-" + (seqOf(underLock, 1) + 1));
            assertThat(countOrders(b)).isEqualTo(rowsUnderLock);
            b.execute("COMMIT");
            assertThat(countOrders(b)).isEqualTo(rowsUnderLock + 1);
        }
    }

    @Test
    void aReplicaWithLogSlaveUpdatesBinlogsThePrimarysTransactionsUnderThePrimarysServerId()
            throws Exception {
        try (MySqlServer primary = startPrimary();
                MySqlServer replica = startReplica()) {
            ReplicationSetup.start(primary, replica);
            primary.executeAsRoot(
                    "CREATE DATABASE shop",
                    "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, note VARCHAR(20), qty INT)");
            String start = ReplicationSetup.position(primary);
            primary.executeAsRoot(insertOrder(1), insertOrder(2));
            ReplicationSetup.awaitCaughtUp(primary, replica, REPLICATION_WAIT);

            String state = "0-" + PRIMARY_SERVER_ID + "-4";
            assertThat(primary.queryStringAsRoot("SELECT @@global.gtid_binlog_state"))
                    .isEqualTo(state);
            assertThat(replica.queryStringAsRoot("SELECT @@global.gtid_binlog_state"))
                    .isEqualTo(state);
            assertThat(ReplicationSetup.position(replica))
                    .isEqualTo(ReplicationSetup.position(primary))
                    .isEqualTo(state);
            List<Event> events = afterStart(dump(replica.port(), start, untilRowWith(2)).events);
            assertThat(gtids(events))
                    .containsExactly(
                            "0-" + PRIMARY_SERVER_ID + "-3", "0-" + PRIMARY_SERVER_ID + "-4");
            assertThat(events)
                    .allSatisfy(
                            e ->
                                    assertThat(e.getHeader().getServerId())
                                            .isEqualTo(PRIMARY_SERVER_ID));
        }
    }

    @Test
    void
            aDumpFromAPromotedReplicaAtAPositionReadOnTheOldPrimaryDeliversExactlyTheTransactionsAfterIt()
                    throws Exception {
        try (MySqlServer primary = startPrimary();
                MySqlServer replica = startReplica()) {
            ReplicationSetup.start(primary, replica);
            primary.executeAsRoot(
                    "CREATE DATABASE shop",
                    "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, note VARCHAR(20), qty INT)",
                    insertOrder(1));
            String onOldPrimary = ReplicationSetup.position(primary);
            primary.executeAsRoot(insertOrder(2));
            String second = ReplicationSetup.position(primary);
            ReplicationSetup.awaitCaughtUp(primary, replica, REPLICATION_WAIT);
            ReplicationSetup.promote(replica);
            replica.executeAsRoot(insertOrder(3));
            String third = ReplicationSetup.position(replica);

            List<Event> events =
                    afterStart(dump(replica.port(), onOldPrimary, untilRowWith(3)).events);

            // the new primary continues the domain's sequence under its own server id
            assertThat(third).isEqualTo("0-" + REPLICA_SERVER_ID + "-5");
            assertThat(gtids(events)).containsExactly(second, third);
            assertThat(insertedIds(events)).containsExactly(2L, 3L);
        }
    }

    @Test
    void aDumpFromAPositionWhoseBinaryLogsWerePurgedIsRefusedWithError1236() throws Exception {
        PurgedHistory history = purgedHistory();

        Dump refused = dump(purging.port(), history.first, es -> false);

        assertThat(refused.failure).isInstanceOf(ServerException.class);
        ServerException e = (ServerException) refused.failure;
        assertThat(e.getErrorCode()).isEqualTo(ER_MASTER_FATAL_ERROR_READING_BINLOG);
        assertThat(e.getSqlState()).isEqualTo("HY000");
        // unlike a position ahead of the server or diverged from it, the text names no GTID
        assertThat(e.getMessage())
                .isEqualTo(
                        "Could not find GTID state requested by slave in any binlog files."
                                + " Probably the slave state is too old and required binlog"
                                + " files have been purged.")
                .doesNotContain(history.first);
    }

    @Test
    void binlogGtidPosOfTheOldestFileAtOffset4IsThePositionBeforeItFromWhichADumpIsServed()
            throws Exception {
        PurgedHistory history = purgedHistory();

        String beforeOldest =
                purging.queryStringAsRoot(
                        "SELECT BINLOG_GTID_POS('" + history.oldestFile + "', 4)");

        // one GTID per domain (a position), not the file's GTID list (the binlog state, which
        // also holds domain 0's GTID from the other server id); not necessarily in domain
        // order (seen: 3-13-1,0-13-5), so compare it domain by domain, not as text
        assertThat(byDomain(beforeOldest))
                .isEqualTo(byDomain(history.beforeOldestFile))
                .containsOnly(
                        Map.entry(0L, "0-" + PURGING_SERVER_ID + "-5"),
                        Map.entry(3L, "3-" + PURGING_SERVER_ID + "-1"));
        assertThat(purging.queryStringAsRoot("SELECT @@global.gtid_binlog_state"))
                .contains("0-" + OTHER_SERVER_ID + "-4");
        List<Event> served = afterStart(dump(purging.port(), beforeOldest, untilRowWith(6)).events);
        assertThat(insertedIds(served)).containsExactly(6L);
    }

    @Test
    void theOldestFileOpensWithAGtidListOfTheBinlogStateBeforeItWhichTheConnectorReadsAsPurged()
            throws Exception {
        PurgedHistory history = purgedHistory();

        String gtidList = null;
        try (Connection c = purging.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SHOW BINLOG EVENTS IN '" + history.oldestFile + "' LIMIT 4")) {
            while (rs.next()) {
                if (rs.getString("Event_type").equals("Gtid_list")) {
                    gtidList = rs.getString("Info");
                }
            }
        }
        // the binlog state in brackets: every (domain, server id) pair, the other server's too
        assertThat(gtidList).startsWith("[").endsWith("]").contains("0-" + OTHER_SERVER_ID + "-4");
        try (Connection c = purging.openRootConnection()) {
            ServerGtidState state = ServerGtidState.read(c);
            assertThat(state.positionMode()).isFalse();
            assertThat(MariaDbGtidAxes.position(state.earliest().processed()).toString())
                    .isEqualTo(MariaDbGtidPosition.parse(history.beforeOldestFile).toString());
            assertThat(state.earliest().processed())
                    .isEqualTo(
                            MariaDbGtidAxes.ofState(gtidList.substring(1, gtidList.length() - 1)));
            assertThat(state.latest().processed())
                    .isEqualTo(
                            MariaDbGtidAxes.ofState(
                                    purging.queryStringAsRoot(
                                            "SELECT @@global.gtid_binlog_state")));
        }
    }

    // ---- helpers

    private static MySqlServer startPrimary() {
        return MariaDbServer.startForCapture(PRIMARY_SERVER_ID, "--gtid-strict-mode=ON");
    }

    private static MySqlServer startReplica() {
        return MariaDbServer.startForCapture(
                REPLICA_SERVER_ID, "--gtid-strict-mode=ON", "--log-slave-updates=ON");
    }

    /** Positions of {@link #writeAndPurge}: the oldest file left holds only its last write. */
    private static final class PurgedHistory {
        String first;
        String beforeOldestFile;
        String oldestFile;
    }

    /**
     * Writes in domain 0 under two server ids and in domain 3, across four binary log files, then
     * purges all but the newest: the position after the first row insert is in a purged file.
     */
    private static PurgedHistory writeAndPurge(MySqlServer s) throws Exception {
        PurgedHistory h = new PurgedHistory();
        s.executeAsRoot(
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, note VARCHAR(20), qty INT)",
                insertOrder(1));
        h.first = ReplicationSetup.position(s);
        // each call is a connection of its own: the session settings last for its statements
        s.executeAsRoot(
                "FLUSH BINARY LOGS", "SET SESSION server_id = " + OTHER_SERVER_ID, insertOrder(2));
        s.executeAsRoot("FLUSH BINARY LOGS", "SET SESSION gtid_domain_id = 3", insertOrder(3));
        s.executeAsRoot("FLUSH BINARY LOGS", insertOrder(4));
        h.beforeOldestFile = ReplicationSetup.position(s);
        s.executeAsRoot("FLUSH BINARY LOGS", insertOrder(6));
        List<String> files = s.binaryLogs();
        h.oldestFile = files.get(files.size() - 1);
        s.purgeBinaryLogsTo(h.oldestFile);
        return h;
    }

    /** What one dump delivered until its condition held, or the failure that ended it. */
    private static final class Dump {
        final List<Event> events = new ArrayList<>();
        Exception failure;
    }

    /**
     * Dumps the binlog after a MariaDB GTID position, as the connector's client would (its
     * deserializers, no keep-alive), until {@code done} holds or the server fails the dump.
     */
    private static Dump dump(String position, boolean annotateRows, Predicate<List<Event>> done)
            throws Exception {
        return dump(ConnectorConfigs.rootConfig(server).port(), position, annotateRows, done);
    }

    /**
     * {@link #dump(String, boolean, Predicate)} from another test server's root, no annotations.
     */
    private static Dump dump(int port, String position, Predicate<List<Event>> done)
            throws Exception {
        return dump(port, position, false, done);
    }

    private static Dump dump(
            int port, String position, boolean annotateRows, Predicate<List<Event>> done)
            throws Exception {
        Dump dump = new Dump();
        BinaryLogClient client = new BinaryLogClient("127.0.0.1", port, "root", "");
        client.setServerId(4242);
        client.setGtidSet(position); // a MariaDB position: sent as @slave_connect_state
        client.setKeepAlive(false);
        client.setUseSendAnnotateRowsEvent(annotateRows);
        client.setEventDeserializer(BinlogEventDeserializers.create());
        client.registerEventListener(
                e -> {
                    synchronized (dump) {
                        dump.events.add(e);
                        dump.notifyAll();
                    }
                });
        client.registerLifecycleListener(
                new BinaryLogClient.AbstractLifecycleListener() {
                    @Override
                    public void onCommunicationFailure(BinaryLogClient c, Exception ex) {
                        fail(ex);
                    }

                    @Override
                    public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
                        fail(ex);
                    }

                    private void fail(Exception ex) {
                        synchronized (dump) {
                            if (dump.failure == null) {
                                dump.failure = ex;
                            }
                            dump.notifyAll();
                        }
                    }
                });
        client.connect(TimeUnit.SECONDS.toMillis(10));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            synchronized (dump) {
                while (!done.test(dump.events) && dump.failure == null) {
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0) {
                        throw new AssertionError(
                                "dump did not reach its condition; got " + types(dump.events));
                    }
                    dump.wait(left);
                }
            }
        } finally {
            client.disconnect();
        }
        return dump;
    }

    /** The events after the dump's preamble (rotate ... the start position's GTID list). */
    private static List<Event> afterStart(List<Event> events) {
        int i = 0;
        while (i < events.size()
                && events.get(i).getHeader().getEventType() != EventType.MARIADB_GTID) {
            i++;
        }
        return events.subList(i, events.size());
    }

    private static Predicate<List<Event>> untilXids(int n) {
        return es -> types(es).stream().filter(t -> t == EventType.XID).count() >= n;
    }

    /** Until the XID after the rows event that inserts the row with this id. */
    private static Predicate<List<Event>> untilRowWith(long id) {
        return es -> {
            boolean seen = false;
            for (Event e : es) {
                if (e.getData() instanceof WriteRowsEventData) {
                    seen |= idsOf((WriteRowsEventData) e.getData()).contains(id);
                } else if (seen && e.getHeader().getEventType() == EventType.XID) {
                    return true;
                }
            }
            return false;
        };
    }

    private static List<EventType> types(List<Event> events) {
        return events.stream().map(e -> e.getHeader().getEventType()).collect(Collectors.toList());
    }

    private static List<String> gtids(List<Event> events) {
        return events.stream()
                .filter(e -> e.getData() instanceof MariadbGtidEventData)
                .map(e -> e.getData().toString())
                .collect(Collectors.toList());
    }

    private static List<Long> insertedIds(List<Event> events) {
        List<Long> ids = new ArrayList<>();
        for (Event e : events) {
            if (e.getData() instanceof WriteRowsEventData) {
                ids.addAll(idsOf((WriteRowsEventData) e.getData()));
            }
        }
        return ids;
    }

    private static List<Long> idsOf(WriteRowsEventData rows) {
        List<Long> ids = new ArrayList<>();
        for (Serializable[] row : rows.getRows()) {
            ids.add(((Number) row[0]).longValue());
        }
        return ids;
    }

    /** LOG_EVENT_ARTIFICIAL_F: an event the server made up for this dump, not in the file. */
    private static boolean isArtificial(Event e) {
        return (((com.github.shyiko.mysql.binlog.event.EventHeaderV4) e.getHeader()).getFlags()
                        & 0x20)
                != 0;
    }

    /** Position text split by domain, in numeric domain order. */
    private static Map<Long, String> byDomain(String position) {
        Map<Long, String> domains = new TreeMap<>();
        if (!position.isEmpty()) {
            for (String gtid : position.split(",")) {
                domains.put(Long.parseLong(gtid.substring(0, gtid.indexOf('-'))), gtid);
            }
        }
        return domains;
    }

    private static long seqOf(String position, long domain) {
        String gtid = byDomain(position).get(domain);
        return Long.parseLong(gtid.substring(gtid.lastIndexOf('-') + 1));
    }

    private static long nextIdBase = 1000;

    /** Fresh row ids, a block of ten per call. */
    private static synchronized long nextId() {
        nextIdBase += 10;
        return nextIdBase;
    }

    /** Inserts a row with a fresh id in the given domain; returns the id. */
    private static long insert(long domain, String statementWithId) throws Exception {
        long id = nextId();
        sql("SET SESSION gtid_domain_id = " + domain, String.format(statementWithId, id));
        return id;
    }

    private static String insertOrder(long id) {
        return "INSERT INTO shop.orders VALUES (" + id + ", 'r', 1)";
    }

    private static long countOrders(Statement st) throws SQLException {
        return Long.parseLong(queryOn(st, "SELECT COUNT(*) FROM shop.orders"));
    }

    private static String binlogPos() throws Exception {
        return query("SELECT @@global.gtid_binlog_pos");
    }

    private static void sql(String... statements) throws Exception {
        try (Connection c = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    private static String query(String q) throws Exception {
        try (Connection c = JdbcConnections.open(ConnectorConfigs.rootConfig(server));
                Statement st = c.createStatement()) {
            return queryOn(st, q);
        }
    }

    private static String queryOn(Statement st, String q) throws SQLException {
        try (ResultSet rs = st.executeQuery(q)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
