package io.capstan.flink.mysql.table;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The mysql-cdc text of each geometry kind.
 *
 * <p>Where the expected strings come from:
 *
 * <ul>
 *   <li>[doc]: the "Spatial Data Types Mapping" table of Flink CDC's mysql-cdc connector page
 *       (apache/flink-cdc, docs/content/docs/connectors/flink-sources/mysql-cdc.md), one row per
 *       geometry kind, input WKT and output text copied as data;
 *   <li>[ref]: produced by running mysql-cdc's own conversion chain
 *       (MySqlDeserializationConverterFactory#createStringConverter: Esri geometry-api 2.2.4 {@code
 *       OGCGeometry.fromBinary(wkb).asGeoJson()}, read with Jackson 2.17 and written back from a
 *       HashMap of type, coordinates/geometries and srid) on the same WKB, outside this repository.
 * </ul>
 */
class MySqlCdcGeometryTextTest {

    // --- the seven kinds, as in mysql-cdc's documentation [doc] ---

    @Test
    void point() { // [doc] POINT(1 1)
        assertThat(text(point(1, 1)))
                .isEqualTo("{\"coordinates\":[1,1],\"type\":\"Point\",\"srid\":0}");
    }

    @Test
    void lineString() { // [doc] LINESTRING(3 0, 3 3, 3 5)
        assertThat(text(line(3, 0, 3, 3, 3, 5)))
                .isEqualTo(
                        "{\"coordinates\":[[3,0],[3,3],[3,5]],\"type\":\"LineString\",\"srid\":0}");
    }

    @Test
    void polygon() { // [doc] POLYGON((1 1, 2 1, 2 2,  1 2, 1 1))
        assertThat(text(polygon(ring(1, 1, 2, 1, 2, 2, 1, 2, 1, 1))))
                .isEqualTo(
                        "{\"coordinates\":[[[1,1],[2,1],[2,2],[1,2],[1,1]]],\"type\":\"Polygon\",\"srid\":0}");
    }

    @Test
    void multiPoint() { // [doc] MULTIPOINT((1 1),(2 2))
        assertThat(text(multi(4, point(1, 1), point(2, 2))))
                .isEqualTo("{\"coordinates\":[[1,1],[2,2]],\"type\":\"MultiPoint\",\"srid\":0}");
    }

    @Test
    void multiLineString() { // [doc] MultiLineString((1 1,2 2,3 3),(4 4,5 5))
        assertThat(text(multi(5, line(1, 1, 2, 2, 3, 3), line(4, 4, 5, 5))))
                .isEqualTo(
                        "{\"coordinates\":[[[1,1],[2,2],[3,3]],[[4,4],[5,5]]],\"type\":\"MultiLineString\",\"srid\":0}");
    }

    @Test
    void multiPolygon() { // [doc] MULTIPOLYGON(((0 0, 10 0, 10 10, 0 10, 0 0)), ((5 5, 7 5, 7 7,
        // 5 7, 5 5)))
        assertThat(
                        text(
                                multi(
                                        6,
                                        polygon(ring(0, 0, 10, 0, 10, 10, 0, 10, 0, 0)),
                                        polygon(ring(5, 5, 7, 5, 7, 7, 5, 7, 5, 5)))))
                .isEqualTo(
                        "{\"coordinates\":[[[[0,0],[10,0],[10,10],[0,10],[0,0]]],[[[5,5],[7,5],[7,7],[5,7],[5,5]]]],\"type\":\"MultiPolygon\",\"srid\":0}");
    }

    @Test
    void geometryCollection() { // [doc] GEOMETRYCOLLECTION(POINT(10 10), POINT(30 30),
        // LINESTRING(15 15, 20 20))
        assertThat(text(multi(7, point(10, 10), point(30, 30), line(15, 15, 20, 20))))
                .isEqualTo(
                        "{\"geometries\":[{\"type\":\"Point\",\"coordinates\":[10,10]},{\"type\":\"Point\",\"coordinates\":[30,30]},{\"type\":\"LineString\",\"coordinates\":[[15,15],[20,20]]}],\"type\":\"GeometryCollection\",\"srid\":0}");
    }

    // --- numbers, SRID, collections, ring turning [ref] ---

    @Test
    void negativeAndFractionalCoordinates() {
        assertThat(text(point(-1.5, 2.25)))
                .isEqualTo("{\"coordinates\":[-1.5,2.25],\"type\":\"Point\",\"srid\":0}");
        assertThat(text(point(0.1, 1e-7)))
                .isEqualTo("{\"coordinates\":[0.1,1.0E-7],\"type\":\"Point\",\"srid\":0}");
        assertThat(text(point(1e21, 123456789012.5)))
                .isEqualTo(
                        "{\"coordinates\":[1.0E21,1.234567890125E11],\"type\":\"Point\",\"srid\":0}");
        assertThat(text(point(-0.0, 3)))
                .isEqualTo("{\"coordinates\":[0,3],\"type\":\"Point\",\"srid\":0}");
        assertThat(text(point(1e17, 99999999999999984.0)))
                .isEqualTo(
                        "{\"coordinates\":[1.0E17,99999999999999984],\"type\":\"Point\",\"srid\":0}");
        assertThat(text(point(0.0001, 0.00001)))
                .isEqualTo("{\"coordinates\":[1.0E-4,1.0E-5],\"type\":\"Point\",\"srid\":0}");
        assertThat(text(point(1234567.891, -0.5)))
                .isEqualTo("{\"coordinates\":[1234567.891,-0.5],\"type\":\"Point\",\"srid\":0}");
    }

    @Test
    void sridFromTheMySqlPrefix() {
        // Debezium reads the 4-byte little-endian prefix; mysql-cdc prints it (0 when unset).
        assertThat(MySqlCdcGeometryText.ofMySqlValue(withSrid(4326, point(1, 2))))
                .isEqualTo("{\"coordinates\":[1,2],\"type\":\"Point\",\"srid\":4326}");
    }

    @Test
    void emptyAndNestedCollections() {
        assertThat(text(multi(7)))
                .isEqualTo("{\"geometries\":[],\"type\":\"GeometryCollection\",\"srid\":0}");
        // a nested collection keeps the "crs" Esri writes; the top-level one is dropped by
        // mysql-cdc
        assertThat(text(multi(7, multi(7))))
                .isEqualTo(
                        "{\"geometries\":[{\"type\":\"GeometryCollection\",\"geometries\":[],\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:4326\"}}}],\"type\":\"GeometryCollection\",\"srid\":0}");
        assertThat(text(multi(7, point(1, 2), multi(7, point(3, 4), line(1, 1, 2, 2)))))
                .isEqualTo(
                        "{\"geometries\":[{\"type\":\"Point\",\"coordinates\":[1,2]},{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"Point\",\"coordinates\":[3,4]},{\"type\":\"LineString\",\"coordinates\":[[1,1],[2,2]]}],\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:4326\"}}}],\"type\":\"GeometryCollection\",\"srid\":0}");
    }

    @Test
    void singleMemberMultiGeometriesInsideACollection() {
        // Esri writes a one-member MultiLineString/MultiPolygon in a collection as its member's
        // kind.
        assertThat(
                        text(
                                multi(
                                        7,
                                        polygon(ring(1, 1, 2, 1, 2, 2, 1, 2, 1, 1)),
                                        multi(4, point(1, 1), point(2, 2)),
                                        multi(5, line(1, 1, 2, 2)),
                                        multi(6, polygon(ring(0, 0, 1, 0, 1, 1, 0, 0))))))
                .isEqualTo(
                        "{\"geometries\":[{\"type\":\"Polygon\",\"coordinates\":[[[1,1],[2,1],[2,2],[1,2],[1,1]]]},{\"type\":\"MultiPoint\",\"coordinates\":[[1,1],[2,2]]},{\"type\":\"LineString\",\"coordinates\":[[1,1],[2,2]]},{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}],\"type\":\"GeometryCollection\",\"srid\":0}");
        assertThat(text(multi(7, multi(4, point(1, 1)))))
                .isEqualTo(
                        "{\"geometries\":[{\"type\":\"MultiPoint\",\"coordinates\":[[1,1]]}],\"type\":\"GeometryCollection\",\"srid\":0}");
        // at the top level they stay multi
        assertThat(text(multi(5, line(1, 1, 2, 2))))
                .isEqualTo(
                        "{\"coordinates\":[[[1,1],[2,2]]],\"type\":\"MultiLineString\",\"srid\":0}");
    }

    @Test
    void ringsAreTurnedOuterCounterClockwiseHolesClockwise() {
        assertThat(text(polygon(ring(1, 1, 1, 2, 2, 2, 2, 1, 1, 1))))
                .isEqualTo(
                        "{\"coordinates\":[[[1,1],[2,1],[2,2],[1,2],[1,1]]],\"type\":\"Polygon\",\"srid\":0}");
        assertThat(
                        text(
                                polygon(
                                        ring(0, 0, 0, 10, 10, 10, 10, 0, 0, 0),
                                        ring(2, 2, 4, 2, 4, 4, 2, 4, 2, 2))))
                .isEqualTo(
                        "{\"coordinates\":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]],\"type\":\"Polygon\",\"srid\":0}");
        assertThat(
                        text(
                                multi(
                                        6,
                                        polygon(
                                                ring(1, 1, 1, 2, 2, 2, 2, 1, 1, 1),
                                                ring(1.2, 1.2, 1.8, 1.2, 1.8, 1.8, 1.2, 1.2)))))
                .isEqualTo(
                        "{\"coordinates\":[[[[1,1],[2,1],[2,2],[1,2],[1,1]],[[1.2,1.2],[1.8,1.8],[1.8,1.2],[1.2,1.2]]]],\"type\":\"MultiPolygon\",\"srid\":0}");
    }

    @Test
    void bigEndianWkbAndBadBytes() {
        byte[] big =
                ByteBuffer.allocate(21)
                        .order(ByteOrder.BIG_ENDIAN)
                        .put((byte) 0)
                        .putInt(1)
                        .putDouble(5)
                        .putDouble(-6)
                        .array();
        assertThat(text(big)).isEqualTo("{\"coordinates\":[5,-6],\"type\":\"Point\",\"srid\":0}");
        byte[] cut = new byte[10];
        System.arraycopy(point(1, 1), 0, cut, 0, 10);
        assertThatThrownBy(() -> text(cut)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MySqlCdcGeometryText.ofMySqlValue(new byte[3]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // --- WKB builders (little-endian, as MySQL stores it) ---

    private static String text(byte[] wkb) {
        return MySqlCdcGeometryText.of(ByteBuffer.wrap(wkb), 0);
    }

    private static byte[] withSrid(int srid, byte[] wkb) {
        return ByteBuffer.allocate(4 + wkb.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(srid)
                .put(wkb)
                .array();
    }

    private static ByteBuffer header(int size, int type) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).putInt(type);
    }

    private static byte[] point(double x, double y) {
        return header(21, 1).putDouble(x).putDouble(y).array();
    }

    private static byte[] line(double... xy) {
        ByteBuffer b = header(9 + 8 * xy.length, 2).putInt(xy.length / 2);
        for (double v : xy) {
            b.putDouble(v);
        }
        return b.array();
    }

    private static double[] ring(double... xy) {
        return xy;
    }

    private static byte[] polygon(double[]... rings) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header(9, 3).putInt(rings.length).array());
        for (double[] r : rings) {
            ByteBuffer b = ByteBuffer.allocate(4 + 8 * r.length).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(r.length / 2);
            for (double v : r) {
                b.putDouble(v);
            }
            out.writeBytes(b.array());
        }
        return out.toByteArray();
    }

    private static byte[] multi(int type, byte[]... members) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header(9, type).putInt(members.length).array());
        for (byte[] m : members) {
            out.writeBytes(m);
        }
        return out.toByteArray();
    }
}
