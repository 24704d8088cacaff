package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.CollatedString;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyComparator;
import io.capstan.flink.mysql.snapshot.key.KeyKind;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Weight order equals server order: for each collation a collated chunk key may have, thousands of
 * generated strings stored in a VARCHAR and a CHAR column of that collation are ordered by the
 * connector ({@link KeyComparator}, i.e. {@link KeyCollation#compareWeights}) over the weights the
 * server computes, both from the stored column (as boundaries are read) and from the text bound as
 * a parameter (as binlog keys are weighed). The connector's order must be the server's {@code ORDER
 * BY} up to ties, its sign must be the server's {@code STRCMP} for every adjacent pair in that
 * order and for thousands of random pairs, and it must find two values equal exactly when the
 * server's {@code =} does. The text a boundary key carries (bound in the chunk predicates) must be
 * the stored value in every character set.
 */
class CollatedKeyOrderIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    /** The database of the server under test: MySQL's here, MariaDB's in a subclass. */
    protected MySqlTestDatabase db() {
        return DB;
    }

    /** The collations a collated chunk key may have on MySQL 8.0. */
    static List<String> collations() {
        return List.of(
                "utf8mb4_0900_ai_ci",
                "utf8mb4_0900_as_cs",
                "utf8mb4_general_ci",
                "utf8mb4_unicode_ci",
                "latin1_swedish_ci",
                "utf8mb3_general_ci",
                "ascii_general_ci");
    }

    /** Whether the server documents {@code collation} as PAD SPACE. */
    protected boolean documentedPadSpace(String collation) {
        return !collation.contains("_0900_"); // NO PAD exactly for the UCA 9.0.0 collations
    }

    /** A utf8mb4 NO PAD collation of the server. */
    protected String noPadCollation() {
        return "utf8mb4_0900_ai_ci";
    }

    private static final int STRINGS = 3000;
    private static final int ROWS_PER_INSERT = 500;

    @ParameterizedTest(name = "{0}")
    @MethodSource("collations")
    void weightOrderEqualsServerOrder(String wanted) throws Exception {
        String[] found = serverCollation(wanted);
        String collationName = found[0];
        String charset = found[1];
        String table = "t_" + collationName;
        db().execute(
                        "CREATE TABLE `"
                                + table
                                + "` (id INT AUTO_INCREMENT PRIMARY KEY,"
                                + " v VARCHAR(64) CHARACTER SET "
                                + charset
                                + " COLLATE "
                                + collationName
                                + " NOT NULL, c CHAR(64) CHARACTER SET "
                                + charset
                                + " COLLATE "
                                + collationName
                                + " NOT NULL)",
                        "CREATE TABLE `p_"
                                + table
                                + "` (n INT PRIMARY KEY, a INT NOT NULL, b INT NOT NULL)");
        insertValues(table, CollationTestStrings.generate(wanted.hashCode(), charset, STRINGS));

        Disagreements problems = new Disagreements();
        try (Connection conn = JdbcConnections.open(connectorConfig(db()));
                Connection root = db().openRootConnection()) {
            KeyCollation collation = columnWeighing(conn, table, "v");
            assertThat(columnWeighing(conn, table, "c")).isEqualTo(collation);
            assertThat(collation.padSpace()).isEqualTo(documentedPadSpace(collationName));
            for (String column : List.of("v", "c")) {
                readInServerOrder(conn, table, column, collation)
                        .checkAgainstServer(root, table, column, problems);
            }
        }
        assertThat(problems.isEmpty())
                .as("disagreements in %s:%s", collationName, problems)
                .isTrue();
    }

    /**
     * The pad rule: a PAD SPACE collation compares {@code 'a'} as if followed by spaces without
     * end, so {@code 'a\t' < 'a' = 'a '} (tab sorts below space); the server's weights keep the
     * trailing characters, and compared bytewise alone they would say {@code 'a' < 'a\t' < 'a '}.
     * In a NO PAD collation the bytewise order of the weights is the order.
     */
    @Test
    void weightsNeedThePadRuleInAPadSpaceCollation() throws Exception {
        List<String> texts = List.of("a", "a\t", "a ", "a\n", "a  ");
        try (Connection conn = JdbcConnections.open(connectorConfig(db()))) {
            KeyCollation padSpace =
                    JdbcTableKeyMetadataReader.weighing(conn, "utf8mb4_general_ci", "utf8mb4");
            KeyCollation noPad =
                    JdbcTableKeyMetadataReader.weighing(conn, noPadCollation(), "utf8mb4");
            assertThat(padSpace.padSpace()).isTrue();
            assertThat(noPad.padSpace()).isFalse();

            List<byte[]> padWeights = JdbcKeyWeights.weigh(conn, padSpace, texts);
            int[][] server = serverStrcmp(conn, padSpace, texts);
            assertThat(server[1][0]).as("'a\\t' vs 'a' on the server").isNegative();
            assertThat(server[2][0]).as("'a ' vs 'a' on the server").isZero();
            assertThat(Arrays.compareUnsigned(padWeights.get(1), padWeights.get(0)))
                    .as("bare bytewise order of the weights of 'a\\t' and 'a'")
                    .isPositive();
            assertThat(Arrays.compareUnsigned(padWeights.get(2), padWeights.get(0)))
                    .as("bare bytewise order of the weights of 'a ' and 'a'")
                    .isPositive();
            assertSameSigns(padSpace, padWeights, server);

            List<byte[]> noPadWeights = JdbcKeyWeights.weigh(conn, noPad, texts);
            int[][] noPadServer = serverStrcmp(conn, noPad, texts);
            assertThat(noPadServer[2][0]).as("'a ' vs 'a' without padding").isPositive();
            assertSameSigns(noPad, noPadWeights, noPadServer);
        }
    }

    private static void assertSameSigns(KeyCollation collation, List<byte[]> w, int[][] server) {
        for (int i = 0; i < w.size(); i++) {
            for (int j = 0; j < w.size(); j++) {
                assertThat(Integer.signum(collation.compareWeights(w.get(i), w.get(j))))
                        .as("%s: text %d vs text %d", collation, i, j)
                        .isEqualTo(server[i][j]);
            }
        }
    }

    /** The server's STRCMP of every pair of texts in the collation, one statement. */
    private static int[][] serverStrcmp(Connection conn, KeyCollation collation, List<String> texts)
            throws SQLException {
        int n = texts.size();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int k = 0; k < n * n; k++) {
            sql.append(k == 0 ? "" : ", ")
                    .append("STRCMP(")
                    .append(collation.collated("?"))
                    .append(", ")
                    .append(collation.collated("?"))
                    .append(")");
        }
        int[][] out = new int[n][n];
        try (PreparedStatement ps = conn.prepareStatement(sql.toString())) {
            for (int k = 0; k < n * n; k++) {
                ps.setString(2 * k + 1, texts.get(k / n));
                ps.setString(2 * k + 2, texts.get(k % n));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                for (int k = 0; k < n * n; k++) {
                    out[k / n][k % n] = rs.getInt(k + 1);
                }
            }
        }
        return out;
    }

    /** {collation, charset} as this server names them (8.0.15 still says utf8 for utf8mb3). */
    private String[] serverCollation(String wanted) throws SQLException {
        String alias = wanted.startsWith("utf8mb3_") ? "utf8_" + wanted.substring(8) : wanted;
        try (Connection c = db().openRootConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "SELECT COLLATION_NAME, CHARACTER_SET_NAME"
                                        + " FROM information_schema.COLLATIONS"
                                        + " WHERE COLLATION_NAME IN (?, ?)"
                                        + " ORDER BY COLLATION_NAME = ? DESC")) {
            ps.setString(1, wanted);
            ps.setString(2, alias);
            ps.setString(3, wanted);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("the server has collation " + wanted).isTrue();
                return new String[] {rs.getString(1), rs.getString(2)};
            }
        }
    }

    /** Both columns get each text; equal values under the collation are separate rows. */
    private void insertValues(String table, List<String> texts) throws SQLException {
        try (Connection c = db().openRootConnection()) {
            for (int from = 0; from < texts.size(); from += ROWS_PER_INSERT) {
                List<String> part =
                        texts.subList(from, Math.min(texts.size(), from + ROWS_PER_INSERT));
                StringBuilder sql = new StringBuilder("INSERT INTO `" + table + "` (v, c) VALUES ");
                for (int i = 0; i < part.size(); i++) {
                    sql.append(i == 0 ? "(?, ?)" : ", (?, ?)");
                }
                try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                    for (int i = 0; i < part.size(); i++) {
                        ps.setString(2 * i + 1, part.get(i));
                        ps.setString(2 * i + 2, part.get(i));
                    }
                    ps.executeUpdate();
                }
            }
        }
    }

    /** How the connector weighs the column: its collation as information_schema gives it. */
    private KeyCollation columnWeighing(Connection conn, String table, String column)
            throws SQLException {
        try (PreparedStatement ps =
                conn.prepareStatement(
                        "SELECT COLLATION_NAME, CHARACTER_SET_NAME FROM information_schema.COLUMNS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
            ps.setString(1, db().name());
            ps.setString(2, table);
            ps.setString(3, column);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                KeyCollation k =
                        JdbcTableKeyMetadataReader.weighing(conn, rs.getString(1), rs.getString(2));
                assertThat(k).as("the server weighs " + rs.getString(1)).isNotNull();
                return k;
            }
        }
    }

    /**
     * The column's values in the server's ORDER BY, read as boundaries are ({@link
     * ChunkKey#selectList()}, {@link JdbcKeyValues#read}), and the same texts weighed again as
     * parameters ({@link JdbcKeyWeights#weigh}).
     */
    private ServerOrderedColumn readInServerOrder(
            Connection conn, String table, String column, KeyCollation collation)
            throws SQLException {
        ChunkKey key =
                new ChunkKey(
                        TableId.of(db().name(), table),
                        List.of(
                                new KeyColumn(
                                        column,
                                        1,
                                        KeyKind.STRING_COLLATED,
                                        false,
                                        64,
                                        0,
                                        column.equals("v") ? "varchar" : "char",
                                        collation)),
                        ChunkKey.Source.CHUNK_KEY_COLUMN);
        List<Integer> ids = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<String> keyTexts = new ArrayList<>();
        List<KeyTuple> stored = new ArrayList<>();
        List<byte[]> storedWeights = new ArrayList<>();
        try (Statement st = conn.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT id, "
                                        + key.selectList()
                                        + " FROM "
                                        + key.table().quoted()
                                        + " ORDER BY "
                                        + key.quotedColumnList())) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
                KeyTuple k = JdbcKeyValues.read(key, rs, 2);
                stored.add(k);
                texts.add(rs.getString(2)); // as the driver decodes the column's charset
                keyTexts.add(((CollatedString) k.get(0)).text().toString());
                storedWeights.add(rs.getBytes(3));
            }
        }
        List<byte[]> paramWeights = JdbcKeyWeights.weigh(conn, collation, texts);
        List<KeyTuple> bound = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            bound.add(
                    KeyTuple.of(
                            new CollatedString(
                                    StringData.fromString(texts.get(i)), paramWeights.get(i))));
        }
        return new ServerOrderedColumn(
                KeyComparator.of(key),
                ids,
                texts,
                keyTexts,
                stored,
                storedWeights,
                bound,
                paramWeights);
    }
}
