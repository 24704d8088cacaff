package io.capstan.flink.mysql.route;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One table of a routed stream ({@link TableRoutes}): which MySQL table, the Flink row type its
 * rows have downstream (the columns as discovered, in the table's order, typed as docs/types.md
 * maps them) and its primary key's column names (empty for a table without one).
 */
@PublicEvolving
public record RoutedTable(TableId id, RowType rowType, List<String> primaryKey)
        implements Serializable {

    public RoutedTable {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(rowType, "rowType");
        primaryKey = List.copyOf(primaryKey);
    }

    /** The row type as a Flink {@link DataType}, e.g. for a Table API {@code Schema}. */
    public DataType dataType() {
        return TypeConversions.fromLogicalToDataType(rowType);
    }
}
