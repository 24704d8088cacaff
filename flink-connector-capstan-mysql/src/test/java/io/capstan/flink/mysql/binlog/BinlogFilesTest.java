package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.GtidModeChange;
import io.capstan.flink.mysql.gtid.GtidSet;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static io.capstan.flink.mysql.binlog.Events.UUID_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A server without GTIDs: start positions come from its files, and a resume is checked against them
 * (the same server, a listed file, an offset it wrote) and against its mode.
 */
class BinlogFilesTest {

    private static final BinlogFiles FILES =
            new BinlogFiles(
                    UUID_A,
                    "OFF",
                    List.of(
                            new BinlogFiles.File("binlog.000007", 5_000),
                            new BinlogFiles.File("binlog.000008", 900)),
                    new Position(8, 900));
    private static final BinlogPositionAxis AXIS = FILES.axis();
    private static final ServerGtidState SERVER =
            ServerGtidState.of(GtidSet.empty(), GtidSet.empty(), FILES);

    private static HaltReason haltOf(GtidSet processed, ServerGtidState server) {
        try {
            server.resumeFrom(processed, "db:3306");
            return null;
        } catch (CapstanHaltException e) {
            assertThat(e.getMessage()).contains("db:3306");
            return e.reason();
        }
    }

    @Test
    void startPositionsComeFromTheFiles() {
        assertThat(SERVER.positionMode()).isTrue();
        assertThat(SERVER.latest().processed()).isEqualTo(AXIS.before(new Position(8, 900)));
        assertThat(SERVER.earliest().processed()).isEqualTo(AXIS.before(new Position(7, 4)));
        assertThat(FILES.fileName(8)).isEqualTo("binlog.000008");
        assertThat(FILES.fileName(9)).isNull();
    }

    @Test
    void aResumeInAListedFileWithinWhatWasWrittenPasses() {
        assertThat(haltOf(AXIS.before(new Position(7, 4_000)), SERVER)).isNull();
        assertThat(haltOf(AXIS.before(new Position(7, 5_000)), SERVER)).isNull();
        assertThat(haltOf(AXIS.before(new Position(8, 900)), SERVER)).isNull();
    }

    @Test
    void aPurgedFileIsAGapAndAPositionNeverWrittenIsAnotherLog() {
        assertThat(haltOf(AXIS.before(new Position(6, 100)), SERVER))
                .isEqualTo(HaltReason.DATA_GAP);
        // past a file's end (RESET MASTER, a rebuilt server), or after the last file
        assertThat(haltOf(AXIS.before(new Position(7, 5_001)), SERVER))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
        assertThat(haltOf(AXIS.before(new Position(9, 4)), SERVER))
                .isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
    }

    @Test
    void positionsOfAnotherServerHalt() {
        GtidSet other = BinlogPositionAxis.of(UUID_B).before(new Position(7, 4_000));
        assertThatThrownBy(() -> SERVER.resumeFrom(other, "db:3306"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SOURCE_IDENTITY_MISMATCH);
                            assertThat(e.getMessage()).contains(UUID_A).contains("gtid_mode = ON");
                        });
    }

    @Test
    void aChangedGtidModeHaltsBothWays() {
        ServerGtidState nowOn =
                ServerGtidState.of(
                        GtidSet.parse(UUID_A + ":1-5"),
                        GtidSet.empty(),
                        new BinlogFiles(UUID_A, "ON", FILES.files(), FILES.current()));
        assertThat(haltOf(AXIS.before(new Position(8, 100)), nowOn))
                .isEqualTo(HaltReason.GTID_MODE_CHANGED);
        assertThat(haltOf(GtidSet.parse(UUID_A + ":1-5"), SERVER))
                .isEqualTo(HaltReason.GTID_MODE_CHANGED);
        assertThat(haltOf(GtidSet.parse(UUID_A + ":1-5"), nowOn)).isNull();
    }

    @Test
    void kindsNeverMeet() {
        GtidSet positions = AXIS.before(new Position(8, 100));
        GtidModeChange.requireSameKind(positions, AXIS.before(new Position(7, 4)), "here");
        GtidModeChange.requireSameKind(GtidSet.empty(), GtidSet.parse(UUID_A + ":1"), "here");
        assertThatThrownBy(
                        () ->
                                GtidModeChange.requireSameKind(
                                        positions, GtidSet.parse(UUID_A + ":1"), "here"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.GTID_MODE_CHANGED));
    }
}
