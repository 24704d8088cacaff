package io.capstan.flink.mysql.schema.read;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.MySqlCharsets;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.mysql.cj.CharsetMapping;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Reads a TABLE_MAP event's optional metadata for {@link BinlogSchemaReader}, as a cursor: the
 * per-kind lists (character sets, ENUM labels, SET labels, geometry types) hold one entry per
 * column of that kind, so each {@code next*} call takes the next entry; the SIGNEDNESS bits are
 * re-dealt for servers that write none for YEAR. One instance per table map, columns visited in
 * order.
 */
final class TableMapMetadataReader {

    /** The collation id of the {@code binary} character set. */
    private static final int BINARY_COLLATION = 63;

    private final TableMapEventMetadata md;
    private final BitSet signedness;
    private final boolean geometryHasCharset;
    private int characterColumn;
    private int enumColumn;
    private int setColumn;
    private int geometryColumn;

    TableMapMetadataReader(
            TableMapEventMetadata md,
            byte[] types,
            boolean yearHasSignednessBit,
            boolean geometryHasCharset) {
        this.md = md;
        this.geometryHasCharset = geometryHasCharset;
        BitSet library = md.getSignedness() == null ? new BitSet() : md.getSignedness();
        this.signedness = yearHasSignednessBit ? library : withoutYearBits(library, types);
    }

    /**
     * The library hands out the raw bits in order to its numeric columns, YEAR included; re-deal
     * the same bit sequence to the columns the server counted (YEAR excluded).
     */
    private static BitSet withoutYearBits(BitSet library, byte[] types) {
        BitSet raw = new BitSet();
        int n = 0;
        for (int i = 0; i < types.length; i++) {
            if (BinlogSchemaReader.hasLibrarySignedness(types[i] & 0xFF)) {
                raw.set(n++, library.get(i));
            }
        }
        BitSet out = new BitSet();
        int j = 0;
        for (int i = 0; i < types.length; i++) {
            int code = types[i] & 0xFF;
            if (BinlogSchemaReader.hasLibrarySignedness(code)
                    && code != ColumnType.YEAR.getCode()) {
                out.set(i, raw.get(j++));
            }
        }
        return out;
    }

    /** The library maps the SIGNEDNESS bits onto column indexes; a set bit means UNSIGNED. */
    boolean unsigned(int columnIndex) {
        return signedness.get(columnIndex);
    }

    /** A GEOMETRY column takes a charset entry (binary) on servers that write one for it. */
    void skipGeometryCharset(TableId id, String column) {
        if (geometryHasCharset) {
            nextCharset(id, column);
        }
    }

    String nextCharset(TableId id, String column) {
        int n = characterColumn++;
        Integer collation = null;
        if (md.getColumnCharsets() != null) {
            List<Integer> list = md.getColumnCharsets();
            collation = n < list.size() ? list.get(n) : null;
        } else if (md.getDefaultCharset() != null) {
            TableMapEventMetadata.DefaultCharset dc = md.getDefaultCharset();
            Map<Integer, Integer> exceptions =
                    dc.getCharsetCollations() == null
                            ? Collections.emptyMap()
                            : dc.getCharsetCollations();
            collation = exceptions.getOrDefault(n, dc.getDefaultCharsetCollation());
        }
        if (collation == null) {
            throw new CapstanHaltException(
                    HaltReason.UNDECODABLE_COLUMN,
                    "table "
                            + id
                            + " column "
                            + column
                            + ": the binlog table map carries no"
                            + " character set. Remedy: SET GLOBAL binlog_row_metadata = FULL.");
        }
        if (collation == BINARY_COLLATION) {
            return MySqlCharsets.BINARY;
        }
        String name = CharsetMapping.getStaticMysqlCharsetNameForCollationIndex(collation);
        if (name == null) {
            throw BinlogSchemaReader.unsupported(id, column, "collation id " + collation);
        }
        return MySqlCharsets.canonical(name);
    }

    List<String> nextEnumLabels(TableId id, String column) {
        return labels(id, column, md.getEnumStrValues(), enumColumn++);
    }

    List<String> nextSetLabels(TableId id, String column) {
        return labels(id, column, md.getSetStrValues(), setColumn++);
    }

    private List<String> labels(TableId id, String column, List<String[]> all, int n) {
        if (all == null || n >= all.size()) {
            throw new CapstanHaltException(
                    HaltReason.UNDECODABLE_COLUMN,
                    "table "
                            + id
                            + " column "
                            + column
                            + ": the binlog table map carries no"
                            + " ENUM/SET labels. Remedy: SET GLOBAL binlog_row_metadata = FULL.");
        }
        String[] labels = all.get(n);
        for (String label : labels) {
            if (label == null || label.indexOf('\uFFFD') >= 0) {
                throw new CapstanHaltException(
                        HaltReason.UNDECODABLE_COLUMN,
                        "table "
                                + id
                                + " column "
                                + column
                                + ": an ENUM/SET label in the binlog"
                                + " table map is not decodable. Remedy: run the JVM with"
                                + " -Dfile.encoding=UTF-8 and use utf8mb4 labels.");
            }
        }
        return Arrays.asList(labels);
    }

    MySqlType nextGeometryType(TableId id, String column) {
        List<Integer> all = md.getGeometryTypes();
        int n = geometryColumn++;
        int code = all == null || n >= all.size() ? 0 : all.get(n);
        switch (code) {
            case 0:
                return MySqlType.GEOMETRY;
            case 1:
                return MySqlType.POINT;
            case 2:
                return MySqlType.LINESTRING;
            case 3:
                return MySqlType.POLYGON;
            case 4:
                return MySqlType.MULTIPOINT;
            case 5:
                return MySqlType.MULTILINESTRING;
            case 6:
                return MySqlType.MULTIPOLYGON;
            case 7:
                return MySqlType.GEOMETRYCOLLECTION;
            default:
                throw BinlogSchemaReader.unsupported(id, column, "geometry type code " + code);
        }
    }
}
