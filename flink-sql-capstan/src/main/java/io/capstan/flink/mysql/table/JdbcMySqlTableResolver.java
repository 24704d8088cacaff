package io.capstan.flink.mysql.table;

/**
 * TEMPORARY placeholder until branch {@code types} (JdbcSchemaReader, ColumnSchema) is merged:
 * the real JDBC resolver is written and replaces this file on that merge. Planning fails loudly.
 */
final class JdbcMySqlTableResolver implements MySqlTableResolver {
    @Override
    public java.util.List<MySqlTableShape> resolve(CapstanMySqlTableConfig config) {
        throw new UnsupportedOperationException(
                "capstan-mysql: schema validation needs the types branch (not merged yet)");
    }
}
