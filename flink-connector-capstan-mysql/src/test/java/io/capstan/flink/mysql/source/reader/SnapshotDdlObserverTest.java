package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.SnapshotDdlObserver;

import org.junit.jupiter.api.Test;

import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The binlog's DDL hook after a snapshot: drift only for a DDL between a table's chunks. */
class SnapshotDdlObserverTest {

    private final DdlObserver observer = SnapshotDdlObserver.of(GatedEmitterTest.GATE);

    @Test
    void aDdlOnATableBetweenItsChunksHalts() {
        // chunk 0 holds 1-20, chunk 1 holds 1-10: transaction 15 lies between them
        assertThatThrownBy(
                        () ->
                                observer.onDdl(
                                        "db", "ALTER TABLE t ADD COLUMN c INT", Gtid.of(UUID, 15)))
                .isInstanceOf(CapstanHaltException.class)
                .hasMessageContaining("snapshot_schema_drifted")
                .hasMessageContaining("db.t");
    }

    @Test
    void aDdlAfterAllChunksOrOnAnotherTableDoesNot() {
        assertThatCode(
                        () ->
                                observer.onDdl(
                                        "db", "ALTER TABLE t ADD COLUMN c INT", Gtid.of(UUID, 21)))
                .doesNotThrowAnyException();
        assertThatCode(
                        () ->
                                observer.onDdl(
                                        "db",
                                        "ALTER TABLE other ADD COLUMN c INT",
                                        Gtid.of(UUID, 15)))
                .doesNotThrowAnyException();
        assertThatCode(
                        () ->
                                SnapshotDdlObserver.of(CursorGate.empty())
                                        .onDdl("db", "DROP TABLE t", Gtid.of(UUID, 15)))
                .doesNotThrowAnyException();
    }
}
