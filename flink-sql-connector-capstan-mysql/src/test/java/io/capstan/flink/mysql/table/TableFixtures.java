package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.VarCharType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Declared tables, options and MySQL table shapes for the unit tests. */
final class TableFixtures {

    /** Appears in no message, plan or string if the no-values rule holds. */
    static final String PASSWORD = "Pw-MARKER-7f3a9c";

    private TableFixtures() {}

    static Map<String, String> validOptions() {
        Map<String, String> o = new HashMap<>();
        o.put("connector", "capstan-mysql");
        o.put("hostname", "127.0.0.1");
        o.put("username", "flink");
        o.put("password", PASSWORD);
        o.put("database-name", "shop");
        o.put("table-name", "orders");
        o.put("scan.startup.mode", "latest-offset");
        return o;
    }

    /**
     * {@code orders(id BIGINT PK, customer_id INT, status STRING, amount DECIMAL(12,2), updated_at
     * TIMESTAMP_LTZ(3))}.
     */
    static ResolvedSchema ordersSchema() {
        return new ResolvedSchema(
                List.of(
                        Column.physical("id", DataTypes.BIGINT().notNull()),
                        Column.physical("customer_id", DataTypes.INT()),
                        Column.physical("status", DataTypes.STRING()),
                        Column.physical("amount", DataTypes.DECIMAL(12, 2)),
                        Column.physical("updated_at", DataTypes.TIMESTAMP_LTZ(3)),
                        Column.metadata("tbl", DataTypes.STRING(), "table_name", true)),
                Collections.emptyList(),
                UniqueConstraint.primaryKey("pk", List.of("id")));
    }

    /** The MySQL table behind {@link #ordersSchema()}. */
    static MySqlTableShape ordersShape(String table) {
        return new MySqlTableShape(
                TableId.of("shop", table),
                List.of(
                        new MySqlTableShape.Column("id", "BIGINT NOT NULL", new BigIntType(false)),
                        new MySqlTableShape.Column("customer_id", "INT", new IntType(true)),
                        new MySqlTableShape.Column(
                                "status", "VARCHAR(16)", new VarCharType(true, 16)),
                        new MySqlTableShape.Column(
                                "amount", "DECIMAL(12,2)", new DecimalType(true, 12, 2)),
                        new MySqlTableShape.Column(
                                "updated_at",
                                "TIMESTAMP(3)",
                                new LocalZonedTimestampType(true, 3))),
                List.of("id"));
    }

    static DynamicTableSource create(
            Map<String, String> options, ResolvedSchema schema, MySqlTableResolver resolver) {
        CatalogTable table =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                        .options(options)
                        .build();
        return FactoryUtil.createDynamicTableSource(
                new CapstanMySqlTableFactory(resolver),
                ObjectIdentifier.of("default_catalog", "default_database", "orders"),
                new ResolvedCatalogTable(table, schema),
                Collections.emptyMap(),
                new Configuration(),
                TableFixtures.class.getClassLoader(),
                false);
    }

    static DynamicTableSource create(Map<String, String> options) {
        return create(options, ordersSchema(), config -> List.of(ordersShape("orders")));
    }

    /** The messages of a throwable and all its causes, joined. */
    static String allMessages(Throwable t) {
        List<String> messages = new ArrayList<>();
        for (Throwable c = t; c != null; c = c.getCause()) {
            messages.add(String.valueOf(c.getMessage()));
            messages.add(c.toString());
        }
        return String.join("\n", messages);
    }
}
