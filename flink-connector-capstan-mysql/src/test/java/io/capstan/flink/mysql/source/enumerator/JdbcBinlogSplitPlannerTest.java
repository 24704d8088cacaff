package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.PreflightException;
import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stream-only start through the JDBC proxy: tables, preflight and start position. */
class JdbcBinlogSplitPlannerTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String OTHER_UUID = "4f22fa47-71ca-11e1-9e33-c80aa9429562";
    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final GtidSet EXECUTED = GtidSet.parse(UUID + ":1-100");
    private static final GtidSet PURGED = GtidSet.parse(UUID + ":1-40");

    private final FakeMySql mysql =
            new FakeMySql().table(ORDERS, 1).table(TableId.of("crm", "people"), 1);

    JdbcBinlogSplitPlannerTest() {
        mysql.gtids(EXECUTED, PURGED);
    }

    private BinlogSplit plan(StartupOptions startup) throws Exception {
        return new JdbcBinlogSplitPlanner(
                        FakeMySql.sourceConfig(startup, 10, "shop\\..*"), mysql.jdbc())
                .planNewSplit();
    }

    @Test
    void latestStartsAtTheExecutedSetForTheSelectedTables() throws Exception {
        BinlogSplit split = plan(StartupOptions.latest());
        assertThat(split.tables()).containsExactly(ORDERS);
        assertThat(split.start().processed()).isEqualTo(EXECUTED);
        assertThat(mysql.calls(FakeMySql.SERVER_FACTS)).as("the preflight ran").isEqualTo(1);
        assertThat(mysql.openConnections()).as("released after planning").isZero();
    }

    @Test
    void aTableCreatedWhileTheStartIsReadIsCaptured() throws Exception {
        TableId created = TableId.of("shop", "orders_2");
        // created just before the start position is read: its CREATE is in that position
        mysql.beforeNext(FakeMySql.GTID_STATE, () -> mysql.table(created, 1));
        BinlogSplit split =
                new JdbcBinlogSplitPlanner(
                                FakeMySql.sourceConfig(StartupOptions.latest(), 10, "shop\\..*"),
                                mysql.jdbc())
                        .planNewSplit();
        assertThat(split.tables()).containsExactly(ORDERS, created);
        assertThat(split.start().processed()).isEqualTo(EXECUTED);
    }

    @Test
    void aStreamOnlySourceNeedsNoLockTables() throws Exception {
        mysql.facts(
                FakeMySql.facts(
                        "ON",
                        "GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `capstan`@`%`"));
        assertThat(plan(StartupOptions.latest()).start().processed()).isEqualTo(EXECUTED);
    }

    @Test
    void earliestAndTimestampStartAtThePurgedSet() throws Exception {
        assertThat(plan(StartupOptions.earliest()).start().processed()).isEqualTo(PURGED);
        assertThat(plan(StartupOptions.timestamp(1_700_000_000_000L)).start().processed())
                .isEqualTo(PURGED);
    }

    @Test
    void aGtidSetTheServerCanServeIsTheStart() throws Exception {
        assertThat(plan(StartupOptions.gtidSet(UUID + ":1-60")).start().processed())
                .isEqualTo(GtidSet.parse(UUID + ":1-60"));
    }

    /** A file/position start is translated when the new split is planned, and checked then. */
    @Test
    void aFilePositionIsTranslatedWhenTheSplitIsPlanned() throws Exception {
        mysql.binlogPosition("binlog.000007", 4, GtidSet.parse(UUID + ":1-60"));
        StartupOptions start = StartupOptions.specificOffset("binlog.000007", 4);
        assertThat(mysql.calls(FakeMySql.GTID_SET_BEFORE)).as("not before planning").isZero();
        assertThat(plan(start).start().processed()).isEqualTo(GtidSet.parse(UUID + ":1-60"));
        assertThat(mysql.calls(FakeMySql.GTID_SET_BEFORE)).isEqualTo(1);

        mysql.binlogPosition("binlog.000001", 4, GtidSet.parse(UUID + ":1-20"));
        assertThatThrownBy(() -> plan(StartupOptions.specificOffset("binlog.000001", 4)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP));
    }

    @Test
    void aGtidSetWithPurgedGapsHaltsWithDataGap() {
        assertThatThrownBy(() -> plan(StartupOptions.gtidSet(UUID + ":1-20")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.DATA_GAP))
                .hasMessageContaining(FakeMySql.ADDRESS);
        assertThat(mysql.openConnections()).as("released after a halt too").isZero();
    }

    @Test
    void aGtidSetOfAnotherServerHaltsWithSourceIdentityMismatch() {
        assertThatThrownBy(
                        () -> plan(StartupOptions.gtidSet(UUID + ":1-60," + OTHER_UUID + ":1-3")))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH));
    }

    @Test
    void aSnapshotModeHasNoStartPositionOfItsOwn() {
        assertThatThrownBy(() -> plan(StartupOptions.initial()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.INVALID_START_POSITION));
    }

    @Test
    void aRestoredSplitIsCheckedByThePreflightAgainBeforeItIsHandedOut() throws Exception {
        JdbcBinlogSplitPlanner planner =
                new JdbcBinlogSplitPlanner(
                        FakeMySql.sourceConfig(StartupOptions.latest(), 10, "shop\\..*"),
                        mysql.jdbc());
        BinlogSplit split = planner.planNewSplit();
        planner.verifyBeforeAssigning(split);
        mysql.facts(FakeMySql.facts("OFF"));
        assertThatThrownBy(() -> planner.verifyBeforeAssigning(split))
                .isInstanceOfSatisfying(
                        PreflightException.class,
                        e ->
                                assertThat(e.failures())
                                        .extracting(f -> f.reason())
                                        .containsExactly(HaltReason.BINLOG_DISABLED));
        assertThat(mysql.openConnections()).isZero();
    }
}
