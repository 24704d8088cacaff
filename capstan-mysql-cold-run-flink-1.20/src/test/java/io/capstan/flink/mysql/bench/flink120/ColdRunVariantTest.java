package io.capstan.flink.mysql.bench.flink120;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColdRunVariantTest {

    @Test
    void everyVariantIsNamedAsTheBenchmarkNamesIt() {
        for (String id :
                List.of(
                        "cdc-snapshot",
                        "cdc-binlog",
                        "capstan-sql-snapshot",
                        "capstan-sql-binlog",
                        "floor-sql")) {
            assertEquals(id, ColdRunVariant.byId(id).id());
        }
        assertThrows(IllegalArgumentException.class, () -> ColdRunVariant.byId("cdc-initial"));
    }

    @Test
    void onlyTheBinlogVariantsNeedAGtidSet() {
        assertTrue(ColdRunVariant.CDC_BINLOG.readsBinlog());
        assertTrue(ColdRunVariant.CAPSTAN_SQL_BINLOG.readsBinlog());
        assertFalse(ColdRunVariant.CDC_SNAPSHOT.readsBinlog());
        assertFalse(ColdRunVariant.FLOOR_SQL.readsBinlog());
    }
}
