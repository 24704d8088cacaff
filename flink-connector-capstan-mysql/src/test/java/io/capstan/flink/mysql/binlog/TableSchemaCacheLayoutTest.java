package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The stream reads a table map in the layout of the server that wrote the binlog. */
class TableSchemaCacheLayoutTest {

    private static final TableId T = TableId.of("db", "t");

    /** id INT, g GEOMETRY, c VARCHAR(5) latin1, charsets as MariaDB writes them. */
    private static TableMapEventData mariaDbTableMap() {
        TableMapEventData t = new TableMapEventData();
        t.setTableId(7);
        t.setDatabase("db");
        t.setTable("t");
        t.setColumnTypes(
                new byte[] {
                    (byte) ColumnType.LONG.getCode(),
                    (byte) ColumnType.GEOMETRY.getCode(),
                    (byte) ColumnType.VARCHAR.getCode()
                });
        t.setColumnMetadata(new int[] {0, 4, 5});
        t.setColumnNullability(new BitSet());
        TableMapEventMetadata m = new TableMapEventMetadata();
        m.setSignedness(new BitSet());
        m.setColumnNames(List.of("id", "g", "c"));
        m.setGeometryTypes(List.of(0));
        m.setColumnCharsets(List.of(63, 8));
        m.setSimplePrimaryKeys(List.of(0));
        t.setEventMetadata(m);
        return t;
    }

    @Test
    void aMariaDbBinlogsGeometryTakesACharsetEntry() {
        TableSchemaCache cache = new TableSchemaCache(T::equals, new BinlogStreamerMetrics());
        cache.onServerVersion("10.11.19-MariaDB-0+deb12u1-log");
        assertThat(cache.onTableMap(mariaDbTableMap()).schema.column(2).charset())
                .isEqualTo("latin1");
    }

    @Test
    void aLayoutChangeRebuildsTheSchema() {
        TableSchemaCache cache = new TableSchemaCache(T::equals, new BinlogStreamerMetrics());
        cache.onServerVersion("8.4.3-log");
        TableSchemaCache.Entry mysql = cache.onTableMap(mariaDbTableMap());
        cache.onServerVersion("10.11.19-MariaDB-0+deb12u1-log");
        TableSchemaCache.Entry mariaDb = cache.onTableMap(mariaDbTableMap());
        assertThat(mariaDb).isNotSameAs(mysql);
        assertThat(mariaDb.schema.column(2).charset()).isEqualTo("latin1");
    }
}
