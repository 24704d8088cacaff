package io.capstan.flink.mysql.table;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The text Flink CDC's {@code mysql-cdc} emits for a spatial column declared {@code STRING}: a
 * GeoJSON-like object {@code {"coordinates":...,"type":"Point","srid":0}} (a collection: {@code
 * {"geometries":[...],"type":"GeometryCollection","srid":0}}).
 *
 * <p>mysql-cdc builds it by rendering the WKB as GeoJSON with the Esri geometry library, reading
 * that back with Jackson and writing it again from a {@code HashMap}. This class reproduces the
 * visible result of that chain, quirks included, because users compare these strings:
 *
 * <ul>
 *   <li>top-level key order {@code coordinates}/{@code geometries}, {@code type}, {@code srid};
 *       members of a collection as {@code {"type":...,"coordinates":...}};
 *   <li>a number that is a whole number below 10^17 in magnitude is written as an integer ({@code
 *       1}, {@code -0} as {@code 0}); any other as {@link Double#toString} ({@code 1.5}, {@code
 *       1.0E-7}, {@code 1.0E17});
 *   <li>polygon rings are turned so the outer ring runs counter-clockwise and holes clockwise,
 *       keeping the first point;
 *   <li>inside a collection, a multi-line-string or multi-polygon of exactly one member is written
 *       as that member's kind, and a nested collection carries {@code "crs"} naming EPSG:4326.
 * </ul>
 *
 * Pure logic; errors carry no value (the no-values rule).
 */
final class MySqlCdcGeometryText {

    private static final String NESTED_CRS =
            "{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:4326\"}}";

    /** Whole numbers at or above this magnitude are printed in exponent form. */
    private static final double INTEGER_FORM_LIMIT = 1e17;

    private MySqlCdcGeometryText() {}

    /**
     * The text of one value stored as MySQL does: a 4-byte little-endian SRID, then standard WKB.
     *
     * @throws IllegalArgumentException when the bytes are no geometry
     */
    static String ofMySqlValue(byte[] value) {
        if (value.length < 4) {
            throw new IllegalArgumentException("spatial value shorter than its SRID prefix");
        }
        int srid = ByteBuffer.wrap(value, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return of(ByteBuffer.wrap(value, 4, value.length - 4).slice(), srid);
    }

    /**
     * The text of standard WKB and its SRID.
     *
     * @throws IllegalArgumentException when the bytes are no geometry
     */
    static String of(ByteBuffer wkb, int srid) {
        Reader in = new Reader(wkb);
        StringBuilder out = new StringBuilder();
        int kind = in.header();
        if (kind == GEOMETRYCOLLECTION) {
            out.append("{\"geometries\":");
            collectionMembers(in, out);
            out.append(",\"type\":\"GeometryCollection\"");
        } else {
            out.append("{\"coordinates\":");
            coordinates(in, kind, out);
            out.append(",\"type\":\"").append(typeName(kind)).append('"');
        }
        out.append(",\"srid\":").append(srid).append('}');
        if (in.buf.hasRemaining()) {
            throw new IllegalArgumentException("bytes after the end of the geometry");
        }
        return out.toString();
    }

    private static final int POINT = 1;
    private static final int LINESTRING = 2;
    private static final int POLYGON = 3;
    private static final int MULTIPOINT = 4;
    private static final int MULTILINESTRING = 5;
    private static final int MULTIPOLYGON = 6;
    private static final int GEOMETRYCOLLECTION = 7;

    private static String typeName(int kind) {
        switch (kind) {
            case POINT:
                return "Point";
            case LINESTRING:
                return "LineString";
            case POLYGON:
                return "Polygon";
            case MULTIPOINT:
                return "MultiPoint";
            case MULTILINESTRING:
                return "MultiLineString";
            case MULTIPOLYGON:
                return "MultiPolygon";
            default:
                throw new IllegalArgumentException("unknown WKB geometry type");
        }
    }

    private static void collectionMembers(Reader in, StringBuilder out) {
        int n = in.count();
        out.append('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.append(',');
            }
            int kind = in.header();
            if (kind == GEOMETRYCOLLECTION) {
                out.append("{\"type\":\"GeometryCollection\",\"geometries\":");
                collectionMembers(in, out);
                out.append(",\"crs\":").append(NESTED_CRS).append('}');
                continue;
            }
            StringBuilder coords = new StringBuilder();
            int members = coordinates(in, kind, coords);
            int shown = kind;
            if (members == 1 && kind == MULTILINESTRING) {
                shown = LINESTRING;
                coords = unwrap(coords);
            } else if (members == 1 && kind == MULTIPOLYGON) {
                shown = POLYGON;
                coords = unwrap(coords);
            }
            out.append("{\"type\":\"")
                    .append(typeName(shown))
                    .append("\",\"coordinates\":")
                    .append(coords)
                    .append('}');
        }
        out.append(']');
    }

    /** {@code [x]} to {@code x}: the only member of a multi-geometry's coordinate list. */
    private static StringBuilder unwrap(StringBuilder list) {
        return new StringBuilder(list.subSequence(1, list.length() - 1));
    }

    /**
     * Appends the coordinates of a geometry of {@code kind} whose header was read.
     *
     * @return the number of members (points, lines, rings or polygons) at the top of the list
     */
    private static int coordinates(Reader in, int kind, StringBuilder out) {
        switch (kind) {
            case POINT:
                position(in.x(), in.y(), out);
                return 1;
            case LINESTRING:
                return points(in, out);
            case POLYGON:
                return rings(in, out);
            case MULTIPOINT:
            case MULTILINESTRING:
            case MULTIPOLYGON:
                int n = in.count();
                int memberKind = kind - 3;
                out.append('[');
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    if (in.header() != memberKind) {
                        throw new IllegalArgumentException("multi-geometry member of another type");
                    }
                    coordinates(in, memberKind, out);
                }
                out.append(']');
                return n;
            case GEOMETRYCOLLECTION:
            default:
                throw new IllegalArgumentException("unknown WKB geometry type");
        }
    }

    private static int points(Reader in, StringBuilder out) {
        int n = in.count();
        out.append('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.append(',');
            }
            position(in.x(), in.y(), out);
        }
        out.append(']');
        return n;
    }

    private static int rings(Reader in, StringBuilder out) {
        int rings = in.count();
        out.append('[');
        for (int r = 0; r < rings; r++) {
            if (r > 0) {
                out.append(',');
            }
            int n = in.count();
            double[] xy = new double[2 * n];
            for (int i = 0; i < n; i++) {
                xy[2 * i] = in.x();
                xy[2 * i + 1] = in.y();
            }
            double area = twiceSignedArea(xy);
            // The outer ring counter-clockwise (positive area), holes clockwise.
            boolean reverse = r == 0 ? area < 0 : area > 0;
            out.append('[');
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    out.append(',');
                }
                int p = reverse ? n - 1 - i : i;
                position(xy[2 * p], xy[2 * p + 1], out);
            }
            out.append(']');
        }
        out.append(']');
        return rings;
    }

    /** The shoelace sum: positive for a counter-clockwise ring. */
    private static double twiceSignedArea(double[] xy) {
        double sum = 0;
        int n = xy.length / 2;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            sum += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
        }
        return sum;
    }

    private static void position(double x, double y, StringBuilder out) {
        out.append('[');
        number(x, out);
        out.append(',');
        number(y, out);
        out.append(']');
    }

    /**
     * Esri prints {@code %.17g} without trailing zeros, so a whole number below 10^17 shows no
     * point and Jackson reads it back as an integer; anything else is read back as a double and
     * written with {@link Double#toString}.
     */
    static void number(double d, StringBuilder out) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("coordinate is not a finite number");
        }
        if (d == Math.rint(d) && Math.abs(d) < INTEGER_FORM_LIMIT) {
            out.append((long) d);
        } else {
            out.append(d);
        }
    }

    /** Reads WKB; each geometry header gives its own byte order. */
    private static final class Reader {
        private final ByteBuffer buf;

        Reader(ByteBuffer buf) {
            this.buf = buf;
        }

        /** Reads a byte order and a geometry type; returns the type (1..7, 2D only). */
        int header() {
            require(5);
            byte order = buf.get();
            if (order == 0) {
                buf.order(ByteOrder.BIG_ENDIAN);
            } else if (order == 1) {
                buf.order(ByteOrder.LITTLE_ENDIAN);
            } else {
                throw new IllegalArgumentException("bad WKB byte order");
            }
            int type = buf.getInt();
            if (type < POINT || type > GEOMETRYCOLLECTION) {
                throw new IllegalArgumentException("unsupported WKB geometry type");
            }
            return type;
        }

        int count() {
            require(4);
            int n = buf.getInt();
            if (n < 0 || n > buf.remaining()) {
                throw new IllegalArgumentException("bad WKB element count");
            }
            return n;
        }

        double x() {
            require(16);
            return buf.getDouble();
        }

        double y() {
            return buf.getDouble();
        }

        private void require(int bytes) {
            if (buf.remaining() < bytes) {
                throw new IllegalArgumentException("WKB ends early");
            }
        }
    }
}
