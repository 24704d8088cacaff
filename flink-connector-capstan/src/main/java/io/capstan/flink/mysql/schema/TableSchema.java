package io.capstan.flink.mysql.schema;

import java.io.Serializable;
import org.apache.flink.table.types.logical.RowType;

/** TEMPORARY stand-in for branch types' TableSchema (replaced on merge). */
public final class TableSchema implements Serializable {
    private static final long serialVersionUID = 1L;
    private final TableId tableId;
    private final RowType rowType;

    public TableSchema(TableId tableId, RowType rowType) {
        this.tableId = tableId;
        this.rowType = rowType;
    }

    public TableId tableId() {
        return tableId;
    }

    public RowType rowType() {
        return rowType;
    }
}
