package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.FakeJdbcProxy;
import io.capstan.flink.mysql.proxy.FakeMySql;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static org.assertj.core.api.Assertions.assertThat;

/** The lag gauge's poller over the fake server: follows, survives failures, releases on close. */
class ServerGtidPollerTest {

    private final FakeMySql mysql = new FakeMySql();

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(2);
        }
    }

    @Test
    void followsTheServersExecutedSetKeepingTheLastValueThroughFailures() throws Exception {
        GtidSet first = GtidSet.parse(UUID + ":1-10");
        GtidSet second = GtidSet.parse(UUID + ":1-12");
        mysql.gtids(first, GtidSet.empty());
        FakeJdbcProxy proxy = mysql.jdbc();
        ServerGtidPoller poller = new ServerGtidPoller(proxy, Duration.ofMillis(5));
        try {
            await("the first poll", () -> first.equals(poller.latest()));

            mysql.failNext(FakeMySql.GTID_EXECUTED, 3);
            mysql.gtids(second, GtidSet.empty());
            await("three failed polls", () -> mysql.calls(FakeMySql.GTID_EXECUTED) >= 5);
            await("a poll after the failures", () -> second.equals(poller.latest()));
            assertThat(mysql.connects()).as("each failure dropped the connection").isEqualTo(4);
        } finally {
            poller.close();
        }
        assertThat(poller.stopped()).isTrue();
        assertThat(proxy.connected()).isFalse();
        int polls = mysql.calls(FakeMySql.GTID_EXECUTED);
        Thread.sleep(30);
        assertThat(mysql.calls(FakeMySql.GTID_EXECUTED)).as("no poll after close").isEqualTo(polls);
    }

    @Test
    void isNullBeforeTheFirstSuccessfulPoll() throws Exception {
        mysql.failNext(FakeMySql.GTID_EXECUTED, Integer.MAX_VALUE);
        ServerGtidPoller poller = new ServerGtidPoller(mysql.jdbc(), Duration.ofMillis(5));
        try {
            await("a few polls", () -> mysql.calls(FakeMySql.GTID_EXECUTED) >= 3);
            assertThat(poller.latest()).isNull();
        } finally {
            poller.close();
        }
        assertThat(mysql.openConnections()).isZero();
    }
}
