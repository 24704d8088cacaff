package io.capstan.flink.mysql.e2e.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstan.flink.mysql.e2e.connector.ChangelogCheck.Result;
import io.capstan.flink.mysql.e2e.connector.ChangelogCheck.Row;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The check sees a single duplicate, gap, lost insert, lost delete or lost last change. */
class ChangelogCheckTest {
    private static final String G = "3e11fa47-71ca-11e1-9e33-c80aa9429562:";

    // uid 1: insert, update, key move 1 -> 7, update; uid 2: insert, delete; uid 3: snapshot read at
    // version 5, then an update.
    private static final List<String> CLEAN = List.of(
            "c,t,1,-,1,1,100," + G + "1,0",
            "c,t,2,-,2,1,200," + G + "1,1",
            "u,t,1,1,1,2,110," + G + "2,0",
            "u,t,1,1,7,3,110," + G + "3,0",
            "d,t,2,2,-,1,200," + G + "3,1",
            "u,t,1,7,7,4,120," + G + "4,0",
            "r,t,3,-,3,5,300,-,0",
            "u,t,3,3,3,6,310," + G + "5,0");
    private static final List<Row> TABLE = List.of(new Row(1, 7, 4, 120), new Row(3, 3, 6, 310));

    @Test
    void cleanChangelogPassesInAnyOrder() {
        assertThat(ChangelogCheck.check(CLEAN, TABLE).problems()).isEmpty();
        List<String> reversed = new ArrayList<>(CLEAN);
        java.util.Collections.reverse(reversed);
        Result result = ChangelogCheck.check(reversed, TABLE);
        assertThat(result.passed()).isTrue();
        assertThat(result.snapshotReads()).isEqualTo(1);
        assertThat(result.rowIdentities()).isEqualTo(3);
    }

    @Test
    void oneDuplicateIsSeen() {
        for (String line : CLEAN) {
            List<String> lines = new ArrayList<>(CLEAN);
            lines.add(line);
            assertThat(ChangelogCheck.check(lines, TABLE).problems()).as("duplicate of " + line).isNotEmpty();
        }
    }

    @Test
    void everySingleLostChangeIsSeen() {
        for (int i = 0; i < CLEAN.size(); i++) {
            List<String> lines = new ArrayList<>(CLEAN);
            String lost = lines.remove(i);
            assertThat(ChangelogCheck.check(lines, TABLE).problems()).as("without " + lost).isNotEmpty();
        }
    }

    @Test
    void aWrongFinalTableIsSeen() {
        assertThat(ChangelogCheck.check(CLEAN, List.of(new Row(1, 7, 4, 120))).problems())
                .anyMatch(p -> p.contains("the table has no such row"));
        assertThat(ChangelogCheck.check(CLEAN, List.of(new Row(1, 7, 4, 121), new Row(3, 3, 6, 310)))
                .problems()).singleElement().asString().contains("uid 1");
    }

    @Test
    void aChangeStartingAtTheWrongKeyIsSeen() {
        List<String> lines = new ArrayList<>(CLEAN);
        lines.set(5, "u,t,1,1,7,4,120," + G + "4,0");
        assertThat(ChangelogCheck.check(lines, TABLE).problems())
                .singleElement().asString().contains("another key");
    }
}
