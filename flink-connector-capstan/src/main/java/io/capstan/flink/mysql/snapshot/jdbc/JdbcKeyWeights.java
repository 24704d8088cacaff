package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the server for the weights ({@code WEIGHT_STRING}) of key texts in a collation: one
 * single-row {@code SELECT} of up to {@link #PER_STATEMENT} expressions per round trip. The text is
 * bound as a parameter and converted to the column's character set by the server, exactly as {@link
 * io.capstan.flink.mysql.snapshot.key.ChunkKey#selectList()} weighs a stored value.
 */
@Internal
public final class JdbcKeyWeights {

    /** Expressions per statement: a binlog fetch batch of 1,024 changes is a few round trips. */
    public static final int PER_STATEMENT = 256;

    private JdbcKeyWeights() {}

    /** The weights of {@code texts}, in order. */
    public static List<byte[]> weigh(Connection conn, KeyCollation collation, List<String> texts)
            throws SQLException {
        List<byte[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += PER_STATEMENT) {
            List<String> part = texts.subList(from, Math.min(texts.size(), from + PER_STATEMENT));
            try (PreparedStatement ps = conn.prepareStatement(select(collation, part.size()))) {
                for (int i = 0; i < part.size(); i++) {
                    ps.setString(i + 1, part.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    for (int i = 0; i < part.size(); i++) {
                        out.add(nonNull(rs.getBytes(i + 1), collation));
                    }
                }
            }
        }
        return out;
    }

    private static String select(KeyCollation collation, int n) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < n; i++) {
            sql.append(i == 0 ? "" : ", ").append(collation.weightOf("?"));
        }
        return sql.toString();
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
