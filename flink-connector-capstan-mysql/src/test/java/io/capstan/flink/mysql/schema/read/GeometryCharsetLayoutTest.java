package io.capstan.flink.mysql.schema.read;

import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB lists a GEOMETRY column among a table map's character columns (binary), MySQL does not:
 * the character column after it must still get its own charset.
 */
class GeometryCharsetLayoutTest {

    private static final TableId T = TableId.of("db", "t");

    /** id INT, g GEOMETRY, c VARCHAR(5) CHARSET latin1, with the given COLUMN_CHARSET list. */
    private static TableMapEventData tableMap(List<Integer> charsets) {
        TableMapEventData t = new TableMapEventData();
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
        m.setColumnCharsets(charsets);
        m.setSimplePrimaryKeys(List.of(0));
        t.setEventMetadata(m);
        return t;
    }

    @Test
    void mariaDbsGeometryTakesACharsetEntry() {
        TableSchema s = BinlogSchemaReader.fromTableMap(T, tableMap(List.of(63, 8)), true, true);
        assertThat(s.column(2).charset()).isEqualTo("latin1");
    }

    @Test
    void mysqlsGeometryTakesNone() {
        TableSchema s = BinlogSchemaReader.fromTableMap(T, tableMap(List.of(8)), true);
        assertThat(s.column(2).charset()).isEqualTo("latin1");
    }

    @Test
    void theLayoutFollowsTheServerKind() {
        assertThat(BinlogSchemaReader.geometryHasCharset("10.11.19-MariaDB-0+deb12u1-log"))
                .isTrue();
        assertThat(BinlogSchemaReader.geometryHasCharset("8.4.3-log")).isFalse();
    }
}
