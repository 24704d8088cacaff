package io.capstan.flink.mysql.snapshot.read;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Turns the current result row (columns in {@link TableReadSpec#columns()} order) into the row's
 * Flink internal form. Built once per schema: {@code RowConverter.of(schema)::fromJdbc}.
 */
@FunctionalInterface
@Internal
public interface JdbcRowDecoder {
    RowData decode(ResultSet rs) throws SQLException;
}
