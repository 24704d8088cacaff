package io.capstan.flink.mysql.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.capstan.flink.mysql.CapstanMySqlOptions.*;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.DATABASE_NAME;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.JDBC_PROPERTIES_PREFIX;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SERVER_TIME_ZONE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.TABLE_NAME;

/**
 * The {@code 'capstan-mysql'} table connector: validates the options and the declared schema
 * against the MySQL tables at planning time, and creates a {@link CapstanMySqlTableSource}.
 */
@Internal
public final class CapstanMySqlTableFactory implements DynamicTableSourceFactory {

    public static final String IDENTIFIER = "capstan-mysql";

    private static final Logger LOG = LoggerFactory.getLogger(CapstanMySqlTableFactory.class);

    private final MySqlTableResolver resolver;

    /** Used by Flink's service discovery. */
    public CapstanMySqlTableFactory() {
        this(new JdbcMySqlTableResolver());
    }

    CapstanMySqlTableFactory(MySqlTableResolver resolver) {
        this.resolver = resolver;
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(HOSTNAME);
        options.add(USERNAME);
        options.add(PASSWORD);
        options.add(DATABASE_NAME);
        options.add(TABLE_NAME);
        return options;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(PORT);
        options.add(SERVER_ID);
        options.add(SCAN_STARTUP_MODE);
        options.add(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET);
        options.add(SCAN_STARTUP_TIMESTAMP_MILLIS);
        options.add(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE);
        options.add(SCAN_SNAPSHOT_FETCH_SIZE);
        options.add(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN);
        options.add(SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT);
        options.add(SCAN_SNAPSHOT_LOCK_WAIT_BUDGET);
        options.add(CONNECT_TIMEOUT);
        options.add(CONNECT_MAX_RETRIES);
        options.add(HEARTBEAT_INTERVAL);
        options.add(BINLOG_RECONNECT_BACKOFF);
        options.add(BINLOG_RECONNECT_BUDGET);
        options.add(BINLOG_TRUNCATE_HANDLING);
        options.add(SSL_MODE);
        options.add(SERVER_TIME_ZONE);
        options.addAll(MySqlCdcCompatibleOptions.ALL);
        return options;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        Map<String, String> raw = context.getCatalogTable().getOptions();
        UnsupportedOptionHints.check(raw.keySet());

        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validateExcept(JDBC_PROPERTIES_PREFIX);
        MySqlTableDefinition table =
                TableOptionsValidation.validate(helper.getOptions(), raw, LOG::warn);

        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        List<MySqlTableShape> tables = resolver.resolve(table);
        DeclaredSchemaCheck.check(schema, tables, table.chunkKeyColumn());

        return new CapstanMySqlTableSource(
                table,
                context.getPhysicalRowDataType(),
                context.getObjectIdentifier().asSummaryString());
    }
}
