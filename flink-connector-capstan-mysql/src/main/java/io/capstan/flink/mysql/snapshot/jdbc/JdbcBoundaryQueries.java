package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.connect.SqlErrors;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyPredicates;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.snapshot.plan.BoundaryQueries;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * {@link BoundaryQueries} over one JDBC connection (auto-commit, needs SELECT on the table). Each
 * question is one index-ordered query; none of them locks anything. Not thread-safe.
 */
@Internal
public final class JdbcBoundaryQueries implements BoundaryQueries {
    private final Connection conn;
    private boolean statsExpiryDisabled;

    public JdbcBoundaryQueries(Connection conn) {
        this.conn = conn;
    }

    @Override
    public long estimatedRowCount(ChunkKey key) throws IOException {
        try {
            if (!statsExpiryDisabled) {
                // MySQL 8 caches TABLE_ROWS for a day by default; ask for the current estimate.
                try (Statement st = conn.createStatement()) {
                    st.execute("SET SESSION information_schema_stats_expiry = 0");
                } catch (SQLException e) {
                    // 5.7 has no such variable; its TABLE_ROWS is always current.
                }
                statsExpiryDisabled = true;
            }
            try (PreparedStatement ps =
                    conn.prepareStatement(
                            "SELECT TABLE_ROWS FROM information_schema.TABLES"
                                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
                ps.setString(1, key.table().database());
                ps.setString(2, key.table().table());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0;
                }
            }
        } catch (SQLException e) {
            throw failure("estimate the row count of", key, e);
        }
    }

    @Override
    public Optional<KeyTuple> min(ChunkKey key) throws IOException {
        return edge(key, false);
    }

    @Override
    public Optional<KeyTuple> max(ChunkKey key) throws IOException {
        return edge(key, true);
    }

    private Optional<KeyTuple> edge(ChunkKey key, boolean descending) throws IOException {
        String sql =
                "SELECT "
                        + key.selectList()
                        + " FROM "
                        + key.table().quoted()
                        + KeyPredicates.orderBy(key, descending)
                        + " LIMIT 1";
        try (PreparedStatement ps = conn.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(JdbcKeyValues.read(key, rs, 1)) : Optional.empty();
        } catch (SQLException e) {
            throw failure("find the key range of", key, e);
        }
    }

    @Override
    public Optional<KeyTuple> boundaryAfter(ChunkKey key, KeyTuple low, int count)
            throws IOException {
        StringBuilder sql =
                new StringBuilder("SELECT ")
                        .append(key.selectList())
                        .append(" FROM ")
                        .append(key.table().quoted());
        KeyPredicates.Predicate p = KeyPredicates.atLeast(key);
        if (low != null) {
            sql.append(" WHERE ").append(p.sql());
        }
        sql.append(KeyPredicates.orderBy(key, false)).append(" LIMIT 1 OFFSET ?");
        try (PreparedStatement ps = conn.prepareStatement(sql.toString())) {
            int next = 1;
            if (low != null) {
                next = bindPredicate(ps, key, p, low, 1);
            }
            ps.setInt(next, count);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(JdbcKeyValues.read(key, rs, 1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw failure("find the next chunk boundary of", key, e);
        }
    }

    @Override
    public Optional<KeyTuple> firstAbove(ChunkKey key, KeyTuple value) throws IOException {
        KeyPredicates.Predicate p = KeyPredicates.above(key);
        String sql =
                "SELECT "
                        + key.selectList()
                        + " FROM "
                        + key.table().quoted()
                        + " WHERE "
                        + p.sql()
                        + KeyPredicates.orderBy(key, false)
                        + " LIMIT 1";
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            bindPredicate(ps, key, p, value, 1);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(JdbcKeyValues.read(key, rs, 1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw failure("find the next chunk boundary of", key, e);
        }
    }

    /** Binds a predicate's placeholders from {@code tuple}; returns the next parameter index. */
    static int bindPredicate(
            PreparedStatement ps,
            ChunkKey key,
            KeyPredicates.Predicate p,
            KeyTuple tuple,
            int first)
            throws SQLException {
        int index = first;
        for (int column : p.parameterColumns()) {
            JdbcKeyValues.bindValue(key.column(column), tuple.get(column), ps, index++);
        }
        return index;
    }

    private static IOException failure(String what, ChunkKey key, SQLException e) {
        return SqlErrors.scrub("could not " + what + " table " + key.table(), e);
    }
}
