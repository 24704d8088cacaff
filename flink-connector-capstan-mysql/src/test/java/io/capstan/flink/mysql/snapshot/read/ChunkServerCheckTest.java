package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The chunk connections show each new session to the server check before using it. */
class ChunkServerCheckTest {

    private static final MySqlConnectionConfig CONFIG =
            MySqlConnectionConfig.builder()
                    .hostname("replica.example")
                    .port(3306)
                    .username("capstan")
                    .password("secret")
                    .build();

    private final ScriptedSessions server = new ScriptedSessions("uuid:1-3", "CREATE TABLE t");

    @Test
    void eachSessionIsCheckedWhenItOpensBeforeItsFirstStatement() throws Exception {
        ChunkConnections sessions =
                new ChunkConnections(
                        CONFIG,
                        SnapshotReadOptions.defaults(),
                        server,
                        c -> server.log.add("checked"));
        sessions.open();
        sessions.open(); // both open: nothing opened, nothing checked
        assertThat(server.log).hasSize(4);
        assertThat(server.log.get(0)).isEqualTo("checked");
        assertThat(server.log.get(1)).startsWith("A: SET SESSION lock_wait_timeout");
        assertThat(server.log.get(2)).isEqualTo("checked");
        assertThat(server.log.get(3)).startsWith("B: SET SESSION TRANSACTION ISOLATION LEVEL");

        sessions.close(); // after a failure: the next open reconnects, and checks again
        server.log.clear();
        sessions.open();
        assertThat(server.log).filteredOn("checked"::equals).hasSize(2);
    }

    @Test
    void aHaltOfTheCheckEndsTheOpenBeforeTheSessionIsUsed() {
        AtomicInteger seen = new AtomicInteger();
        ChunkConnections sessions =
                new ChunkConnections(
                        CONFIG,
                        SnapshotReadOptions.defaults(),
                        server,
                        c -> {
                            if (seen.incrementAndGet() == 2) {
                                throw new CapstanHaltException(
                                        HaltReason.SNAPSHOT_SERVER_CHANGED, "another server");
                            }
                        });
        assertThatThrownBy(sessions::open)
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.SNAPSHOT_SERVER_CHANGED));
        assertThat(server.log).noneMatch(s -> s.startsWith("B: SET"));
        assertThat(server.opened).hasSize(2);
        sessions.close();
        assertThat(server.log).containsAll(List.of("A: close", "B: close"));
    }
}
