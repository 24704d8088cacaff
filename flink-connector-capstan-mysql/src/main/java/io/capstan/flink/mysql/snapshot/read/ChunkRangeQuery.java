package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.snapshot.jdbc.JdbcKeyValues;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyPredicates;
import io.capstan.flink.mysql.snapshot.plan.ChunkRange;

import org.apache.flink.table.data.RowData;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A chunk's rows: the table's select list restricted to the chunk's key range ({@code key >= low
 * AND key < high}, either side open at the table's ends), the bounds bound as parameters (the
 * statement text is the same for every chunk of a table, so the driver's prepared statement cache
 * serves it), streamed or fetched by a server cursor, decoded as they arrive.
 */
final class ChunkRangeQuery {

    private ChunkRangeQuery() {}

    /**
     * @param fetchSize rows per server cursor fetch, or 0 to stream the result
     */
    static List<RowData> read(Connection c, ChunkRange range, TableReadSpec spec, int fetchSize)
            throws SQLException {
        ChunkKey key = spec.key();
        KeyPredicates.Predicate lower = range.low() == null ? null : KeyPredicates.atLeast(key);
        KeyPredicates.Predicate upper = range.high() == null ? null : KeyPredicates.below(key);
        try (PreparedStatement ps =
                c.prepareStatement(
                        sql(spec, lower, upper),
                        ResultSet.TYPE_FORWARD_ONLY,
                        ResultSet.CONCUR_READ_ONLY)) {
            ps.setFetchSize(fetchSize > 0 ? fetchSize : Integer.MIN_VALUE);
            int next = 1;
            if (lower != null) {
                next = bind(ps, key, lower, range, true, next);
            }
            if (upper != null) {
                bind(ps, key, upper, range, false, next);
            }
            List<RowData> rows = new ArrayList<>();
            JdbcRowDecoder decoder = spec.decoder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(decoder.decode(rs));
                }
            }
            return rows;
        }
    }

    private static String sql(
            TableReadSpec spec, KeyPredicates.Predicate lower, KeyPredicates.Predicate upper) {
        StringBuilder sql = new StringBuilder(spec.selectPrefix());
        if (lower != null || upper != null) {
            sql.append(" WHERE ");
        }
        if (lower != null) {
            sql.append('(').append(lower.sql()).append(')');
        }
        if (upper != null) {
            if (lower != null) {
                sql.append(" AND ");
            }
            sql.append('(').append(upper.sql()).append(')');
        }
        return sql.toString();
    }

    /**
     * Binds one side's bound to the predicate's parameters from {@code first}; returns the next
     * index.
     */
    private static int bind(
            PreparedStatement ps,
            ChunkKey key,
            KeyPredicates.Predicate p,
            ChunkRange range,
            boolean low,
            int first)
            throws SQLException {
        int index = first;
        for (int column : p.parameterColumns()) {
            Object v = (low ? range.low() : range.high()).get(column);
            JdbcKeyValues.bindValue(key.column(column), v, ps, index++);
        }
        return index;
    }
}
