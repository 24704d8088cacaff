package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.connect.ConnectorJ;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.capstan.flink.mysql.CapstanMySqlOptions.*;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.DATABASE_NAME;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.JDBC_PROPERTIES_PREFIX;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_FILE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_POS;
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
        options.add(SCAN_SNAPSHOT_KEYLESS_TABLE_MAX_ROWS);
        options.add(SCAN_SNAPSHOT_MAX_ROWS_PER_SECOND);
        options.add(SCAN_SNAPSHOT_MAX_CONCURRENT_CHUNK_READS);
        options.add(SCAN_SNAPSHOT_FETCH_SIZE);
        options.add(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_KEY_COLUMN);
        options.add(SCAN_SNAPSHOT_LOCK_WAIT_TIMEOUT);
        options.add(SCAN_SNAPSHOT_LOCK_WAIT_BUDGET);
        options.add(SCAN_SNAPSHOT_HOSTNAME);
        options.add(SCAN_SNAPSHOT_PORT);
        options.add(SCAN_SNAPSHOT_BINLOG_RETENTION_CHECK_INTERVAL);
        options.add(SCAN_NEWLY_ADDED_TABLE_ENABLED);
        options.add(SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED);
        options.add(CONNECT_TIMEOUT);
        options.add(CONNECT_SOCKET_TIMEOUT);
        options.add(CONNECT_MAX_RETRIES);
        options.add(HEARTBEAT_INTERVAL);
        options.add(BINLOG_RECONNECT_BACKOFF);
        options.add(BINLOG_RECONNECT_BUDGET);
        options.add(BINLOG_TRUNCATE_HANDLING);
        options.add(BINLOG_XA_MAX_PENDING_ROWS);
        options.add(SSL_MODE);
        options.add(SERVER_TIME_ZONE);
        options.add(SCAN_STARTUP_SPECIFIC_OFFSET_FILE);
        options.add(SCAN_STARTUP_SPECIFIC_OFFSET_POS);
        options.add(CapstanMySqlTableOptions.SCAN_READ_CHANGELOG_AS_APPEND_ONLY);
        options.add(CapstanMySqlTableOptions.METADATA_OP_TS_SNAPSHOT_ROWS);
        options.addAll(MySqlCdcCompatibleOptions.ALL);
        options.add(MySqlCdcCompatibleOptions.USE_LEGACY_JSON_FORMAT);
        return options;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        requireConnectorJ();
        Map<String, String> raw = context.getCatalogTable().getOptions();
        UnsupportedOptionHints.check(raw.keySet());

        Map<String, String> mapped = DebeziumPassThroughOptions.check(raw, LOG::warn);

        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validateExcept(JDBC_PROPERTIES_PREFIX, DebeziumPassThroughOptions.PREFIX);
        ReadableConfig options = helper.getOptions();
        if (!mapped.isEmpty()) {
            Map<String, String> merged = new HashMap<>(options.toMap());
            merged.putAll(mapped);
            options = Configuration.fromMap(merged);
        }
        MySqlTableDefinition table = TableOptionsValidation.validate(options, raw, LOG::warn);

        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        List<MySqlTableShape> tables = resolver.resolve(table);
        BinaryTextEncoding binaryText = DebeziumValueOptions.binaryEncoding(raw);
        DeclaredSchemaCheck.check(schema, tables, table.chunkKeyColumn(), binaryText);
        DebeziumValueOptions.check(raw, schema, tables);
        DeclaredValueSettings settings =
                DeclaredValueSettings.of(
                        schema,
                        tables,
                        helper.getOptions(),
                        binaryText,
                        () -> resolver.serverTimeZone(table));

        return new CapstanMySqlTableSource(
                table,
                context.getPhysicalRowDataType(),
                context.getObjectIdentifier().asSummaryString(),
                settings,
                helper.getOptions()
                        .get(CapstanMySqlTableOptions.SCAN_READ_CHANGELOG_AS_APPEND_ONLY));
    }

    /** At planning, before anything else: the SQL jar does not bundle the MySQL driver. */
    private static void requireConnectorJ() {
        try {
            ConnectorJ.requirePresent();
        } catch (IllegalStateException e) {
            throw new ValidationException(ConnectorJ.MISSING);
        }
    }
}
