package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;

import org.apache.flink.annotation.Internal;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the server for the weights ({@code WEIGHT_STRING}) of key texts in a collation, up to {@link
 * #PER_STATEMENT} texts a round trip. The texts travel as one JSON array parameter unpacked by
 * {@code JSON_TABLE} (MySQL 8.0.4+), so the statement is the same short text whatever the batch: a
 * {@code SELECT} with one expression per text costs the server a parse per value, about twice the
 * time. Each text is converted to the column's character set by the server, exactly as {@link
 * io.capstan.flink.mysql.snapshot.key.ChunkKey#selectList()} weighs a stored value.
 */
@Internal
public final class JdbcKeyWeights {

    /** Texts per statement: a binlog fetch batch of 1,024 changes is one or two round trips. */
    public static final int PER_STATEMENT = 2_048;

    private static final ObjectMapper JSON = new ObjectMapper();

    private JdbcKeyWeights() {}

    /** The weights of {@code texts}, in order. */
    public static List<byte[]> weigh(Connection conn, KeyCollation collation, List<String> texts)
            throws SQLException {
        List<byte[]> out = new ArrayList<>(texts.size());
        String sql = select(collation);
        for (int from = 0; from < texts.size(); from += PER_STATEMENT) {
            List<String> part = texts.subList(from, Math.min(texts.size(), from + PER_STATEMENT));
            try (PreparedStatement ps = conn.prepareStatement(sql)) {
                ps.setString(1, json(part));
                try (ResultSet rs = ps.executeQuery()) {
                    for (int i = 0; i < part.size(); i++) {
                        if (!rs.next() || rs.getInt(1) != i + 1) {
                            throw new SQLException(
                                    "JSON_TABLE returned a different row count or order than the"
                                            + " texts it was given");
                        }
                        out.add(nonNull(rs.getBytes(2), collation));
                    }
                    if (rs.next()) {
                        throw new SQLException("JSON_TABLE returned more rows than texts");
                    }
                }
            }
        }
        return out;
    }

    /** Row n of the JSON array, and its weight; the column holds the longest CHAR/VARCHAR key. */
    private static String select(KeyCollation collation) {
        return "SELECT t.n, "
                + collation.weightOf("t.v")
                + " FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY,"
                + " v VARCHAR(16383) CHARACTER SET utf8mb4 PATH '$' ERROR ON ERROR)) t"
                + " ORDER BY t.n";
    }

    private static String json(List<String> texts) throws SQLException {
        try {
            return JSON.writeValueAsString(texts);
        } catch (JsonProcessingException e) {
            throw new SQLException("could not encode key texts (" + e.getClass().getName() + ")");
        }
    }

    private static byte[] nonNull(byte[] weight, KeyCollation collation) {
        if (weight == null) {
            throw new CapstanHaltException(
                    HaltReason.UNSUPPORTED_CHUNK_KEY,
                    "the server gave no sort weight (WEIGHT_STRING) for a key value in collation "
                            + collation.name()
                            + "; the table's changes cannot be matched to its snapshot chunks."
                            + " Set 'scan.incremental.snapshot.chunk.key-column' to a column in"
                            + " another collation, or start in a mode without a snapshot");
        }
        return weight;
    }
}
