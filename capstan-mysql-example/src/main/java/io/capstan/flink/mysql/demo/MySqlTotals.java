package io.capstan.flink.mysql.demo;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/** The same aggregate as the Flink job, asked of MySQL directly: the truth to compare with. */
final class MySqlTotals {

    private final String sql;

    MySqlTotals(String database) {
        this.sql =
                "SELECT status, COUNT(*), SUM(amount) FROM "
                        + database
                        + "."
                        + ShopSchema.ORDERS
                        + " GROUP BY status";
    }

    Map<String, StatusTotals.Totals> query(Connection c) throws SQLException {
        StatusTotals t = new StatusTotals();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                t.put(rs.getString(1), rs.getLong(2), rs.getBigDecimal(3));
            }
        }
        return t.snapshot();
    }
}
