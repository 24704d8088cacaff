package io.capstan.flink.mysql.bench.endtoend;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchTableTest {

    private final BenchTable uuidKeyed = new BenchTable("db", "t", false, true);

    @Test
    void uuidKeysAreDistinctVersion4UuidsInNoParticularOrder() {
        Set<String> keys = new HashSet<>();
        int ascending = 0;
        String previous = "";
        for (long n = 1; n <= 200_000; n++) {
            String key = BenchTable.uuid(n);
            assertTrue(
                    key.matches(
                            "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"),
                    key);
            assertTrue(keys.add(key), "duplicate key for row " + n);
            if (key.compareTo(previous) > 0) {
                ascending++;
            }
            previous = key;
        }
        assertEquals(BenchTable.uuid(42), BenchTable.uuid(42));
        // random order: about half of the steps go up, not nearly all of them
        assertTrue(ascending > 90_000 && ascending < 110_000, "ascending steps: " + ascending);
    }

    @Test
    void rowsBetweenNamesEachRowsKey() {
        assertEquals(
                "id IN ('" + BenchTable.uuid(5) + "','" + BenchTable.uuid(6) + "')",
                uuidKeyed.rowsBetween(5, 6));
        assertEquals("id BETWEEN 5 AND 6", new BenchTable("db", "t", false).rowsBetween(5, 6));
    }

    @Test
    void rowsOfBothTablesDifferOnlyInTheKey() {
        StringBuilder uuidRow = new StringBuilder();
        uuidKeyed.appendRow(uuidRow, 7);
        StringBuilder intRow = new StringBuilder();
        new BenchTable("db", "t", false).appendRow(intRow, 7);
        assertEquals(
                intRow.toString().replaceFirst("^\\(7,", "('" + BenchTable.uuid(7) + "',"),
                uuidRow.toString());
    }
}
