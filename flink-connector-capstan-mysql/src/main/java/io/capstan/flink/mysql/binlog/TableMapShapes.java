package io.capstan.flink.mysql.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;

import java.util.List;
import java.util.Objects;

/**
 * Whether two table-map events describe the same table shape, so a schema and its converter built
 * for one can decode rows announced by the other. Compares everything a converter depends on:
 * names, column types and type metadata, nullability and the optional FULL row metadata (names,
 * signedness, charsets, ENUM/SET values, geometry types, key columns, visibility). The numeric
 * table id is not part of the shape.
 */
final class TableMapShapes {

    private TableMapShapes() {}

    static boolean sameShape(TableMapEventData a, TableMapEventData b) {
        return Objects.equals(a.getDatabase(), b.getDatabase())
                && Objects.equals(a.getTable(), b.getTable())
                && java.util.Arrays.equals(a.getColumnTypes(), b.getColumnTypes())
                && java.util.Arrays.equals(a.getColumnMetadata(), b.getColumnMetadata())
                && Objects.equals(a.getColumnNullability(), b.getColumnNullability())
                && sameMetadata(a.getEventMetadata(), b.getEventMetadata());
    }

    static boolean sameMetadata(TableMapEventMetadata a, TableMapEventMetadata b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Objects.equals(a.getSignedness(), b.getSignedness())
                && sameCharset(a.getDefaultCharset(), b.getDefaultCharset())
                && Objects.equals(a.getColumnCharsets(), b.getColumnCharsets())
                && Objects.equals(a.getColumnNames(), b.getColumnNames())
                && sameStringArrays(a.getSetStrValues(), b.getSetStrValues())
                && sameStringArrays(a.getEnumStrValues(), b.getEnumStrValues())
                && Objects.equals(a.getGeometryTypes(), b.getGeometryTypes())
                && Objects.equals(a.getSimplePrimaryKeys(), b.getSimplePrimaryKeys())
                && Objects.equals(a.getPrimaryKeysWithPrefix(), b.getPrimaryKeysWithPrefix())
                && sameCharset(a.getEnumAndSetDefaultCharset(), b.getEnumAndSetDefaultCharset())
                && Objects.equals(a.getEnumAndSetColumnCharsets(), b.getEnumAndSetColumnCharsets())
                && Objects.equals(a.getVisibility(), b.getVisibility());
    }

    private static boolean sameCharset(
            TableMapEventMetadata.DefaultCharset a, TableMapEventMetadata.DefaultCharset b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.getDefaultCharsetCollation() == b.getDefaultCharsetCollation()
                && Objects.equals(a.getCharsetCollations(), b.getCharsetCollations());
    }

    private static boolean sameStringArrays(List<String[]> a, List<String[]> b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!java.util.Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
