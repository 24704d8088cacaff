package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.CapstanMySqlSourceBuilder;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.source.TableSelection;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.RowData;

import java.util.List;
import java.util.Optional;

/**
 * Builds the DataStream source for a validated table config: the one place that knows how table
 * options map onto {@link CapstanMySqlSourceBuilder}.
 */
final class SourceAssembly {

    /**
     * The database part of the source's {@code tableList} entry: any; the database itself is
     * chosen by {@code databaseList}. The entry is matched against the whole {@code db.table}.
     */
    private static final String ANY_DATABASE = "[\\s\\S]*";

    private SourceAssembly() {}

    /**
     * @param snapshotColumns the physical columns the query reads: the snapshot SELECT reads only
     *     these (and the chunk key), or every column when empty
     */
    static CapstanMySqlSource<RowData> build(
            CapstanMySqlTableConfig config,
            CapstanDeserializer<RowData> deserializer,
            Optional<List<String>> snapshotColumns) {
        MySqlConnectionConfig c = config.connection();
        CapstanMySqlSourceBuilder<RowData> builder =
                CapstanMySqlSource.<RowData>builder()
                        .hostname(c.hostname())
                        .port(c.port())
                        .username(c.username())
                        .password(c.password())
                        .databaseList(config.databasePattern())
                        .tableList(tableListEntry(config))
                        .startupOptions(startupOptions(config))
                        .deserializer(deserializer)
                        .connectTimeout(c.connectTimeout())
                        .connectMaxRetries(c.maxRetries())
                        .sslMode(c.sslMode())
                        .heartbeatInterval(c.heartbeatInterval())
                        .reconnectBackoff(config.reconnectBackoff())
                        .reconnectBudget(config.reconnectBudget())
                        .jdbcProperties(c.jdbcProperties());
        config.serverId().ifPresent(id -> builder.serverId(id.first()));
        if (config.startupMode().readsSnapshot()) {
            builder.chunkSize(config.chunkSize())
                    .fetchSize(config.fetchSize())
                    .lockWaitTimeout(config.lockWaitTimeout())
                    .lockWaitBudget(config.lockWaitBudget());
            config.chunkKeyColumn().ifPresent(builder::chunkKeyColumn);
            snapshotColumns.ifPresent(builder::snapshotColumns);
        }
        return builder.build();
    }

    /**
     * Fails at planning time when the DataStream source refuses the configuration. The table
     * config validates every option first, so this is a safety net, not the usual path.
     */
    static void checkSupported(CapstanMySqlTableConfig config) {
        try {
            build(config, new RowDataDeserializer(TypeInformation.of(RowData.class)), Optional.empty());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(
                    "The capstan-mysql source refused the table options: " + e.getMessage(), e);
        }
    }

    static TableSelection tableSelection(CapstanMySqlTableConfig config) {
        return TableSelection.of(List.of(config.databasePattern()), List.of(tableListEntry(config)));
    }

    private static String tableListEntry(CapstanMySqlTableConfig config) {
        // A literal dot, and the table pattern as one group, so that it matches the whole table
        // name: 'orders' must not match old_orders, and 'a|b' must mean either table.
        return ANY_DATABASE + "\\.(?:" + config.tablePattern() + ")";
    }

    static StartupOptions startupOptions(CapstanMySqlTableConfig config) {
        switch (config.startupMode()) {
            case INITIAL:
                return StartupOptions.initial();
            case SNAPSHOT:
                return StartupOptions.snapshot();
            case LATEST_OFFSET:
                return StartupOptions.latest();
            case EARLIEST_OFFSET:
                return StartupOptions.earliest();
            case SPECIFIC_OFFSET:
                return StartupOptions.gtidSet(config.specificOffsetGtidSet().orElseThrow());
            case TIMESTAMP:
                return StartupOptions.timestamp(config.startupTimestampMillis().orElseThrow());
            default:
                throw new IllegalStateException("unknown startup mode " + config.startupMode());
        }
    }
}
