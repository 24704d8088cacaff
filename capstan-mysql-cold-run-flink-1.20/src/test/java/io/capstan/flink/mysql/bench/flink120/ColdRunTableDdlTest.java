package io.capstan.flink.mysql.bench.flink120;

import io.capstan.flink.mysql.bench.coldrun.ColdRunArgs;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColdRunTableDdlTest {

    private static final String GTID = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23";

    private static ColdRunArgs<ColdRunVariant> args(
            ColdRunVariant v, ColdRunArgs.SslMode ssl, int parallelism) {
        return new ColdRunArgs<>(
                v,
                "127.0.0.1",
                3307,
                "bench",
                ssl,
                "bench",
                "orders",
                1000,
                GTID,
                null,
                0,
                2,
                parallelism,
                7300,
                Duration.ofSeconds(60));
    }

    private static Map<String, String> options(
            ColdRunVariant v, ColdRunArgs.SslMode ssl, int parallelism) {
        return ColdRunTableDdl.options(args(v, ssl, parallelism), "pw");
    }

    @Test
    void bothConnectorsGetTheSameOptionsSaveTheConnectorAndTls() {
        for (ColdRunArgs.SslMode ssl : ColdRunArgs.SslMode.values()) {
            Map<String, String> cdc = options(ColdRunVariant.CDC_BINLOG, ssl, 1);
            Map<String, String> capstan = options(ColdRunVariant.CAPSTAN_SQL_BINLOG, ssl, 1);
            assertEquals("mysql-cdc", cdc.get("connector"));
            assertEquals("capstan-mysql", capstan.get("connector"));
            assertEquals(withoutTls(cdc), withoutTls(capstan));
        }
    }

    private static Map<String, String> withoutTls(Map<String, String> options) {
        Map<String, String> rest = new HashMap<>(options);
        rest.remove("connector");
        rest.keySet()
                .removeIf(
                        k ->
                                k.equals("ssl.mode")
                                        || k.startsWith("jdbc.properties.")
                                        || k.equals("debezium.database.ssl.mode"));
        return rest;
    }

    @Test
    void mysqlCdcGetsTheModeOnItsPoolAndOnDebeziumsConnectionAndBinlogClient() {
        Map<String, String> off =
                options(ColdRunVariant.CDC_SNAPSHOT, ColdRunArgs.SslMode.DISABLED, 1);
        assertEquals("DISABLED", off.get("jdbc.properties.sslMode"));
        assertEquals("true", off.get("jdbc.properties.allowPublicKeyRetrieval"));
        assertEquals("disabled", off.get("debezium.database.ssl.mode"));
        assertFalse(off.containsKey("ssl.mode"));

        Map<String, String> on =
                options(ColdRunVariant.CDC_SNAPSHOT, ColdRunArgs.SslMode.REQUIRED, 1);
        assertEquals("REQUIRED", on.get("jdbc.properties.sslMode"));
        assertFalse(on.containsKey("jdbc.properties.allowPublicKeyRetrieval"));
        assertEquals("required", on.get("debezium.database.ssl.mode"));
    }

    @Test
    void capstanGetsItsOwnTlsOptionAndNoJdbcPropertyItRefuses() {
        for (ColdRunArgs.SslMode ssl : ColdRunArgs.SslMode.values()) {
            Map<String, String> o = options(ColdRunVariant.CAPSTAN_SQL_SNAPSHOT, ssl, 1);
            assertEquals(ssl.name().toLowerCase(java.util.Locale.ROOT), o.get("ssl.mode"));
            assertTrue(o.keySet().stream().noneMatch(k -> k.startsWith("jdbc.properties.")));
            assertFalse(o.containsKey("debezium.database.ssl.mode"));
        }
    }

    @Test
    void startupModesFollowTheVariant() {
        Map<String, String> snapshot =
                options(ColdRunVariant.CAPSTAN_SQL_SNAPSHOT, ColdRunArgs.SslMode.DISABLED, 1);
        assertEquals("snapshot", snapshot.get("scan.startup.mode"));
        assertFalse(snapshot.containsKey("scan.startup.specific-offset.gtid-set"));

        Map<String, String> binlog =
                options(ColdRunVariant.CDC_BINLOG, ColdRunArgs.SslMode.DISABLED, 1);
        assertEquals("specific-offset", binlog.get("scan.startup.mode"));
        assertEquals(GTID, binlog.get("scan.startup.specific-offset.gtid-set"));
    }

    @Test
    void serverIdsCoverEveryReader() {
        assertEquals(
                "5400-5400",
                options(ColdRunVariant.CDC_SNAPSHOT, ColdRunArgs.SslMode.DISABLED, 1)
                        .get("server-id"));
        assertEquals(
                "5400-5403",
                options(ColdRunVariant.CDC_SNAPSHOT, ColdRunArgs.SslMode.DISABLED, 4)
                        .get("server-id"));
    }

    @Test
    void theFloorIsABoundedUnthrottledDatagenOfTheExpectedRows() {
        Map<String, String> o = options(ColdRunVariant.FLOOR_SQL, ColdRunArgs.SslMode.DISABLED, 1);
        assertEquals("datagen", o.get("connector"));
        assertEquals("1000", o.get("number-of-rows"));
        assertEquals(Integer.toString(Integer.MAX_VALUE), o.get("rows-per-second"));
        assertFalse(o.containsKey("password"));
    }

    @Test
    void quotesInValuesAreDoubledAndTheColumnsAreDeclared() {
        String ddl =
                ColdRunTableDdl.createTable(
                        args(ColdRunVariant.CDC_SNAPSHOT, ColdRunArgs.SslMode.DISABLED, 1), "it's");
        assertTrue(ddl.contains("'password' = 'it''s'"), "quote doubled");
        assertTrue(ddl.startsWith("CREATE TABLE " + ColdRunTableDdl.TABLE + " ("));
        assertTrue(ddl.contains("PRIMARY KEY (id) NOT ENFORCED"));
    }
}
