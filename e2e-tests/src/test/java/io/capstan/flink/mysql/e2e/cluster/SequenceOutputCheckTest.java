package io.capstan.flink.mysql.e2e.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The exactly-once check sees a single duplicate, gap, or replayed state update. */
class SequenceOutputCheckTest {
    private static final int KEYS = 4;

    @Test
    void acceptsExactlyOnceOutputInAnyOrder() {
        List<String> lines = exactlyOnce(100);
        Collections.shuffle(lines);
        assertThatCode(() -> SequenceOutputCheck.assertExactlyOnce(lines, 100))
                .doesNotThrowAnyException();
    }

    @Test
    void seesOneDuplicateRecord() {
        List<String> lines = exactlyOnce(100);
        lines.add(lines.get(37));
        assertThatThrownBy(() -> SequenceOutputCheck.assertExactlyOnce(lines, 100))
                .hasMessageContaining("exactly once");
    }

    @Test
    void seesOneGap() {
        List<String> lines = exactlyOnce(100);
        lines.remove(50);
        assertThatThrownBy(() -> SequenceOutputCheck.assertExactlyOnce(lines, 100))
                .hasMessageContaining("exactly once");
    }

    @Test
    void seesAStateUpdateCountedTwice() {
        // value 40 (key 0) counted as if its key's state had been restored one update too late
        List<String> lines = exactlyOnce(100);
        lines.set(40, "40,0,12");
        assertThatThrownBy(() -> SequenceOutputCheck.assertExactlyOnce(lines, 100))
                .hasMessageContaining("running count");
    }

    private static List<String> exactlyOnce(int count) {
        List<String> lines = new ArrayList<>();
        int[] perKey = new int[KEYS];
        for (int value = 0; value < count; value++) {
            lines.add(value + "," + (value % KEYS) + "," + ++perKey[value % KEYS]);
        }
        return lines;
    }
}
