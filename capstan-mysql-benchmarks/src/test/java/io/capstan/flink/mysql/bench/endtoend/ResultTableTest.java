package io.capstan.flink.mysql.bench.endtoend;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultTableTest {

    @Test
    void ratioLineShowsItsMedianJudgedAgainstItsGoal() {
        ResultTable t = new ResultTable();
        t.defineRatio("met", "met line", "≥ 0.9", 0.9);
        t.defineRatio("missed", "missed line", "≥ 0.9", 0.9);
        for (double v : new double[] {0.85, 0.95, 0.97}) {
            t.add("met", v, 0, 0);
            t.add("missed", v - 0.1, 0, 0);
        }
        String md = t.markdown();
        assertTrue(
                md.contains("| met line | 0.95 | ratio | 3: 0.85 – 0.97 | 0.95 (met) | ≥ 0.9 |"),
                md);
        assertTrue(md.contains("| 0.85 (**missed**) |"), md);
    }

    @Test
    void lastIsTheFigureAddedLast() {
        ResultTable t = new ResultTable();
        t.define("rate", "rate", "rows/s", null, "—", 0);
        assertTrue(Double.isNaN(t.last("rate")));
        t.add("rate", 1, 0, 0);
        t.add("rate", 2, 0, 0);
        assertEquals(2, t.last("rate"));
    }
}
