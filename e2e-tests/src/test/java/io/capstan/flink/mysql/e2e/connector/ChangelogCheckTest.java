package io.capstan.flink.mysql.e2e.connector;

import io.capstan.flink.mysql.e2e.connector.ChangelogCheck.Result;
import io.capstan.flink.mysql.e2e.connector.ChangelogCheck.Row;
import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The check sees a single duplicate, gap, lost insert, lost delete or lost last change. */
@Tag(FlinkLines.NEUTRAL)
class ChangelogCheckTest {
    private static final String G = "3e11fa47-71ca-11e1-9e33-c80aa9429562:";

    // uid 1: insert, update, key move 1 -> 7, update; uid 2: insert, delete.
    private static final List<String> STREAMING =
            List.of(
                    "c,t,1,-,1,1,100," + G + "1,0",
                    "c,t,2,-,2,1,200," + G + "1,1",
                    "u,t,1,1,1,2,110," + G + "2,0",
                    "u,t,1,1,7,3,110," + G + "3,0",
                    "d,t,2,2,-,1,200," + G + "3,1",
                    "u,t,1,7,7,4,120," + G + "4,0");
    private static final List<Row> STREAMING_TABLE = List.of(new Row(1, 7, 4, 120));

    // uid 3: snapshot read at version 5, then an update; uid 4: read at key 4, moved into a chunk
    // not
    // yet read (a delete at key 4), updated there, read with that chunk at version 3; uid 5: moved
    // from a chunk not yet read into one already read (an insert at version 2).
    private static final List<String> SNAPSHOT =
            List.of(
                    "r,t,3,-,3,5,300,-,0",
                    "u,t,3,3,3,6,310," + G + "5,0",
                    "r,t,4,-,4,1,400,-,1",
                    "d,t,4,4,-,1,400," + G + "6,0",
                    "r,t,4,-,90,3,450,-,7",
                    "c,t,5,-,2,2,500," + G + "7,0");
    private static final List<Row> SNAPSHOT_TABLE =
            List.of(new Row(3, 3, 6, 310), new Row(4, 90, 3, 450), new Row(5, 2, 2, 500));

    @Test
    void cleanChangelogsPassInAnyOrder() {
        assertThat(ChangelogCheck.check(STREAMING, STREAMING_TABLE).problems()).isEmpty();
        assertThat(ChangelogCheck.check(reversed(STREAMING), STREAMING_TABLE).problems()).isEmpty();
        Result result = ChangelogCheck.check(reversed(SNAPSHOT), SNAPSHOT_TABLE, true);
        assertThat(result.problems()).isEmpty();
        assertThat(result.snapshotReads()).isEqualTo(3);
        assertThat(result.rowIdentities()).isEqualTo(3);
    }

    @Test
    void oneDuplicateIsSeen() {
        for (String line : STREAMING) {
            assertThat(ChangelogCheck.check(plus(STREAMING, line), STREAMING_TABLE).problems())
                    .as("duplicate of " + line)
                    .isNotEmpty();
        }
        for (String line : SNAPSHOT) {
            assertThat(ChangelogCheck.check(plus(SNAPSHOT, line), SNAPSHOT_TABLE, true).problems())
                    .as("duplicate of " + line)
                    .isNotEmpty();
        }
    }

    @Test
    void everySingleLostChangeIsSeen() {
        for (int i = 0; i < STREAMING.size(); i++) {
            List<String> lines = new ArrayList<>(STREAMING);
            String lost = lines.remove(i);
            assertThat(ChangelogCheck.check(lines, STREAMING_TABLE).problems())
                    .as("without " + lost)
                    .isNotEmpty();
        }
        for (int i = 0; i < SNAPSHOT.size(); i++) {
            List<String> lines = new ArrayList<>(SNAPSHOT);
            String lost = lines.remove(i);
            assertThat(ChangelogCheck.check(lines, SNAPSHOT_TABLE, true).problems())
                    .as("without " + lost)
                    .isNotEmpty();
        }
    }

    @Test
    void streamingCheckAllowsNoSnapshotShapes() {
        assertThat(ChangelogCheck.check(SNAPSHOT, SNAPSHOT_TABLE).problems())
                .hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void aWrongFinalTableIsSeen() {
        assertThat(ChangelogCheck.check(STREAMING, List.of()).problems())
                .anyMatch(p -> p.contains("the table has no such row"));
        assertThat(ChangelogCheck.check(STREAMING, List.of(new Row(1, 7, 4, 121))).problems())
                .singleElement()
                .asString()
                .contains("uid 1");
    }

    @Test
    void aChangeStartingAtTheWrongKeyIsSeen() {
        List<String> lines = new ArrayList<>(STREAMING);
        lines.set(5, "u,t,1,1,7,4,120," + G + "4,0");
        assertThat(ChangelogCheck.check(lines, STREAMING_TABLE).problems())
                .singleElement()
                .asString()
                .contains("another key");
    }

    @Test
    void aRowComingBackAtItsDeletedKeyIsSeen() {
        List<String> lines = new ArrayList<>(SNAPSHOT);
        lines.set(4, "r,t,4,-,4,3,450,-,7");
        assertThat(
                        ChangelogCheck.check(
                                        lines,
                                        List.of(
                                                SNAPSHOT_TABLE.get(0),
                                                new Row(4, 4, 3, 450),
                                                SNAPSHOT_TABLE.get(2)),
                                        true)
                                .problems())
                .singleElement()
                .asString()
                .contains("deleted from");
    }

    private static List<String> reversed(List<String> lines) {
        List<String> copy = new ArrayList<>(lines);
        Collections.reverse(copy);
        return copy;
    }

    private static List<String> plus(List<String> lines, String line) {
        List<String> copy = new ArrayList<>(lines);
        copy.add(line);
        return copy;
    }
}
