package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The brief lock's statements, in their order, against scripted sessions (no server). */
class BriefLockTest {

    private static final TableId T = TableId.of("shop", "orders");
    private static final String G = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-57";
    private static final String LOCK =
            "A: SET SESSION wait_timeout = 10; LOCK TABLES `shop`.`orders` READ";
    private static final String VIEW =
            "B: START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY"
                    + "; SELECT @@global.gtid_executed, @@global.gtid_mode, @@global.server_uuid"
                    + "; SELECT /*+ MAX_EXECUTION_TIME(100) */ 1 FROM `shop`.`orders` LIMIT 0"
                    + "; SHOW CREATE TABLE `shop`.`orders`";
    private static final String UNLOCK =
            "A: UNLOCK TABLES; SET SESSION wait_timeout = @capstan_saved_wait_timeout";

    private static final MySqlConnectionConfig CONFIG =
            MySqlConnectionConfig.builder()
                    .hostname("db.example")
                    .port(3306)
                    .username("capstan")
                    .password("secret")
                    .build();

    private final ScriptedSessions server =
            new ScriptedSessions(
                    G,
                    "CREATE TABLE `orders` (\n  `id` bigint NOT NULL\n) ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4");

    /**
     * Records the listener's calls in the sessions' log, so their place among the statements shows.
     */
    private final BriefLockListener listener =
            new BriefLockListener() {
                @Override
                public void beforeLock(TableId table) {
                    server.log.add("beforeLock " + table);
                }

                @Override
                public void whileLocked(TableId table) {
                    server.log.add("whileLocked " + table);
                }

                @Override
                public void afterUnlock(TableId table) {
                    server.log.add("afterUnlock " + table);
                }
            };

    private ReadView open(ChunkConnections sessions) throws Exception {
        sessions.open();
        server.log.clear(); // the session settings: theSessionsAreSetUpForTheProtocol
        return new BriefLock(SnapshotReadOptions.defaults(), listener).openReadView(sessions, T);
    }

    @Test
    void locksOpensTheViewInOneStatementUnderTheLockAndUnlocks() throws Exception {
        ReadView view = open(new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server));
        assertThat(server.log)
                .containsExactly(
                        "beforeLock shop.orders",
                        LOCK,
                        "whileLocked shop.orders",
                        VIEW,
                        UNLOCK,
                        "afterUnlock shop.orders");
        assertThat(view.gtidSet()).isEqualTo(GtidSet.parse(G));
        assertThat(view.definition())
                .isEqualTo(
                        "CREATE TABLE `orders` (\n  `id` bigint NOT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        assertThat(view.toString()).doesNotContain("CREATE");
    }

    @Test
    void aDdlQueuedUnderTheLockIsLetThroughBeforeTheViewIsOpenedAgain() throws Exception {
        server.failNext(
                "B", "START TRANSACTION", 3024); // MAX_EXECUTION_TIME: B waited behind a DDL
        ReadView view = open(new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server));
        assertThat(server.log)
                .containsExactly(
                        "beforeLock shop.orders",
                        LOCK,
                        "whileLocked shop.orders",
                        VIEW,
                        "B: ROLLBACK",
                        UNLOCK,
                        "beforeLock shop.orders",
                        LOCK,
                        "whileLocked shop.orders",
                        VIEW,
                        UNLOCK,
                        "afterUnlock shop.orders");
        assertThat(view.gtidSet()).isEqualTo(GtidSet.parse(G));
    }

    @Test
    void aLockWaitTimeoutIsRetriedAfterAPause() throws Exception {
        server.failNext("A", "SET SESSION wait_timeout = 10; LOCK TABLES", 1205);
        long start = System.nanoTime();
        open(new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server));
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isGreaterThanOrEqualTo(Duration.ofMillis(50));
        assertThat(server.log)
                .containsExactly(
                        "beforeLock shop.orders",
                        LOCK,
                        LOCK,
                        "whileLocked shop.orders",
                        VIEW,
                        UNLOCK,
                        "afterUnlock shop.orders");
    }

    @Test
    void anyOtherFailureUnderTheLockStillUnlocks() throws Exception {
        server.failNext("B", "START TRANSACTION", 1146); // the table is gone
        ChunkConnections sessions =
                new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server);
        assertThatThrownBy(() -> open(sessions))
                .isInstanceOfSatisfying(
                        SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1146));
        assertThat(server.log)
                .containsExactly(
                        "beforeLock shop.orders", LOCK, "whileLocked shop.orders", VIEW, UNLOCK);
    }

    @Test
    void aFailedUnlockClosesTheLockingSession() throws Exception {
        server.failNext("A", "UNLOCK TABLES", 2013); // lost connection
        ChunkConnections sessions =
                new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server);
        assertThatThrownBy(() -> open(sessions)).isInstanceOf(SQLException.class);
        assertThat(server.log).endsWith(UNLOCK, "A: close");
        assertThat(sessions.lock()).isNull();
        assertThat(sessions.snapshot()).isNotNull();
    }

    @Test
    void theSessionsAreSetUpForTheProtocol() throws Exception {
        ChunkConnections sessions =
                new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server);
        sessions.open();
        assertThat(server.log)
                .containsExactly(
                        "A: SET SESSION lock_wait_timeout = 1,"
                                + " @capstan_saved_wait_timeout = @@SESSION.wait_timeout",
                        "B: SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        assertThat(server.opened.get(0).jdbcProperties())
                .containsExactly(java.util.Map.entry("allowMultiQueries", "true"));
        // A's socket outlasts a LOCK TABLES wait; B's is the configured one.
        assertThat(server.opened.get(0).socketTimeout()).isEqualTo(CONFIG.socketTimeout());
        assertThat(server.opened.get(1).socketTimeout()).isEqualTo(CONFIG.socketTimeout());
        assertThat(server.opened.get(1).jdbcProperties())
                .containsEntry("allowMultiQueries", "true")
                .containsEntry("useServerPrepStmts", "true")
                .containsEntry("cachePrepStmts", "true")
                .doesNotContainKey("useCursorFetch");
        sessions.open(); // both open: nothing to do
        assertThat(server.opened).hasSize(2);

        ScriptedSessions other = new ScriptedSessions(G, "");
        new ChunkConnections(
                        CONFIG.toBuilder().jdbcProperty("useServerPrepStmts", "false").build(),
                        new SnapshotReadOptions(7, Duration.ofSeconds(1), Duration.ofSeconds(10)),
                        other)
                .open();
        assertThat(other.opened.get(1).jdbcProperties())
                .containsEntry("useCursorFetch", "true")
                .containsEntry("useServerPrepStmts", "false")
                .doesNotContainKey("cachePrepStmts");
        assertThat(other.log).hasSize(2);
    }

    /**
     * If this process vanishes while A holds the lock and no reset reaches the server, the server
     * drops A (and the lock) after A's session wait_timeout: it is short from before LOCK TABLES to
     * after UNLOCK TABLES, in the same round trips, and A's own value (saved when it opened) comes
     * back after, so that an idle A between chunks is not dropped.
     */
    @Test
    void theLockHolderHasAShortWaitTimeoutExactlyWhileItMayHoldTheLock() throws Exception {
        server.failNext("A", "SET SESSION wait_timeout = 10; LOCK TABLES", 1205);
        server.failNext("B", "START TRANSACTION", 3024);
        ChunkConnections sessions =
                new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server);
        sessions.open();
        assertThat(server.log.get(0))
                .contains("@capstan_saved_wait_timeout = @@SESSION.wait_timeout");
        server.log.clear();
        new BriefLock(SnapshotReadOptions.defaults(), BriefLockListener.NONE)
                .openReadView(sessions, T);
        List<String> onA =
                List.copyOf(server.log).stream().filter(e -> e.startsWith("A: ")).toList();
        assertThat(onA).containsExactly(LOCK, LOCK, UNLOCK, LOCK, UNLOCK);
        for (String statement : onA) {
            List<String> parts = List.of(statement.substring(3).split("; "));
            if (parts.contains("UNLOCK TABLES")) {
                assertThat(parts)
                        .containsExactly(
                                "UNLOCK TABLES",
                                "SET SESSION wait_timeout = @capstan_saved_wait_timeout");
            } else {
                assertThat(parts)
                        .containsExactly(
                                "SET SESSION wait_timeout = "
                                        + ChunkConnections.LOCK_HOLDER_WAIT_TIMEOUT.toSeconds(),
                                "LOCK TABLES `shop`.`orders` READ");
                assertThat(ChunkConnections.LOCK_HOLDER_WAIT_TIMEOUT)
                        .isLessThanOrEqualTo(Duration.ofSeconds(10));
            }
        }
    }

    @Test
    void theLockingSocketOutlastsALongLockWait() throws Exception {
        new ChunkConnections(
                        CONFIG,
                        new SnapshotReadOptions(
                                0, Duration.ofSeconds(120), Duration.ofSeconds(300)),
                        server)
                .open();
        assertThat(server.opened.get(0).socketTimeout()).isEqualTo(Duration.ofSeconds(130));
        assertThat(server.opened.get(1).socketTimeout()).isEqualTo(CONFIG.socketTimeout());
    }

    /** A closing reader must not wait for the lock wait budget (a minute by default). */
    @Test
    void endingTheSessionsEndsALockBackoffAtOnceAndNothingReopens() throws Exception {
        for (int i = 0; i < 100; i++) {
            server.failNext("A", "SET SESSION wait_timeout = 10; LOCK TABLES", 1205);
        }
        ChunkConnections sessions =
                new ChunkConnections(CONFIG, SnapshotReadOptions.defaults(), server);
        sessions.open();
        java.util.concurrent.CompletableFuture<Throwable> outcome =
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                new BriefLock(SnapshotReadOptions.defaults(), listener)
                                        .openReadView(sessions, T);
                                return null;
                            } catch (Exception e) {
                                return e;
                            }
                        });
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (List.copyOf(server.log).stream().filter(LOCK::equals).count() < 4) {
            assertThat(System.nanoTime()).as("four lock attempts").isLessThan(deadline);
            Thread.sleep(10);
        }
        long start = System.nanoTime();
        sessions.end(true);
        assertThat(outcome.get(10, java.util.concurrent.TimeUnit.SECONDS))
                .isInstanceOf(java.io.InterruptedIOException.class)
                .hasMessageContaining("closed");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500));
        assertThat(server.log).contains("A: abort", "B: abort");
        assertThatThrownBy(sessions::open).isInstanceOf(SQLException.class);
        assertThat(server.opened).hasSize(2);
    }
}
