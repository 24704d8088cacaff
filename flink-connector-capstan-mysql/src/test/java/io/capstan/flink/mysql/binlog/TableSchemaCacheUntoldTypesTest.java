package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A table captured from a statement that does not tell its column types (CREATE TABLE ... LIKE,
 * RENAME): on MariaDB its first table map halts when it holds a BINARY(4) or BINARY(16) column,
 * which may be a UUID, INET4 or INET6 (the binlog writes them so, seen on 10.11).
 */
class TableSchemaCacheUntoldTypesTest {

    private static final TableId T = TableId.of("db", "t");
    private static final String MARIADB = "10.11.19-MariaDB-0+deb12u1-log";

    /** id INT, u BINARY(length), as MariaDB writes a UUID (16) or INET4 (4) column. */
    private static TableMapEventData withBinary(int length) {
        TableMapEventData t = new TableMapEventData();
        t.setTableId(7);
        t.setDatabase("db");
        t.setTable("t");
        t.setColumnTypes(
                new byte[] {(byte) ColumnType.LONG.getCode(), (byte) ColumnType.STRING.getCode()});
        t.setColumnMetadata(new int[] {0, (ColumnType.STRING.getCode() << 8) | length});
        t.setColumnNullability(new BitSet());
        TableMapEventMetadata m = new TableMapEventMetadata();
        m.setSignedness(new BitSet());
        m.setColumnNames(List.of("id", "u"));
        m.setColumnCharsets(List.of(63));
        m.setSimplePrimaryKeys(List.of(0));
        t.setEventMetadata(m);
        return t;
    }

    private static TableSchemaCache cache(String serverVersion, boolean untold) {
        TableSchemaCache cache = new TableSchemaCache(T::equals, new BinlogStreamerMetrics());
        cache.onServerVersion(serverVersion);
        if (untold) {
            cache.typesUntold(T);
        }
        return cache;
    }

    @Test
    void onMariaDbABinary16Or4ColumnOfAnUntoldTableHaltsByName() {
        for (int length : new int[] {16, 4}) {
            TableSchemaCache cache = cache(MARIADB, true);
            assertThatThrownBy(() -> cache.onTableMap(withBinary(length)))
                    .isInstanceOfSatisfying(
                            CapstanHaltException.class,
                            e ->
                                    assertThat(e.reason())
                                            .isEqualTo(HaltReason.UNSUPPORTED_COLUMN_TYPE))
                    .hasMessageContaining("db.t")
                    .hasMessageContaining("column u is written as BINARY(" + length + ")");
        }
    }

    @Test
    void otherLengthsOtherServersAndToldTablesPass() {
        assertThat(cache(MARIADB, true).onTableMap(withBinary(8)).schema).isNotNull();
        assertThat(cache("8.4.3-log", true).onTableMap(withBinary(16)).schema).isNotNull();
        assertThat(cache(MARIADB, false).onTableMap(withBinary(16)).schema).isNotNull();
    }

    @Test
    void theFirstTableMapTellsTheTypes() {
        TableSchemaCache cache = cache(MARIADB, true);
        assertThat(cache.typesTold(T)).isFalse();
        cache.onTableMap(Events.tableMapData(7, "db", "t", 2));
        assertThat(cache.typesTold(T)).isTrue();
    }
}
