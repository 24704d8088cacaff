package io.capstan.flink.mysql.convert;

import java.io.Serializable;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Converts one column's values to Flink's internal data structures, from either path. One instance
 * per column, built once per schema; both methods give equal values for the same cell.
 */
abstract class ColumnConverter implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Converts a non-null binlog cell as {@link BinlogEventDeserializers} produces it. */
    abstract Object fromBinlog(Object raw);

    /**
     * Reads column {@code index} (1-based) of the current row, selected as {@link
     * #selectExpression}; null for SQL NULL.
     */
    abstract Object fromJdbc(ResultSet rs, int index) throws SQLException;

    /**
     * What a SELECT reads for this column so that {@link #fromJdbc} sees the stored value: the
     * column itself unless the server would print it with fewer digits than it stores.
     *
     * @param quotedColumn the column's name, back-quoted
     */
    String selectExpression(String quotedColumn) {
        return quotedColumn;
    }
}
