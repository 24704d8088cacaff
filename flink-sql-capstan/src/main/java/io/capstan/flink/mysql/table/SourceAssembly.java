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

/**
 * Builds the DataStream source for a validated table config: the one place that knows how table
 * options map onto {@link CapstanMySqlSourceBuilder}.
 */
final class SourceAssembly {

    /**
     * A table pattern for the source's {@code tableList}: {@code db.table} splits at the first
     * unescaped dot, so the database part must contain none; the database itself is chosen by
     * {@code databaseList}.
     */
    private static final String ANY_DATABASE = "[\\s\\S]*";

    private SourceAssembly() {}

    static CapstanMySqlSource<RowData> build(
            CapstanMySqlTableConfig config, CapstanDeserializer<RowData> deserializer) {
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
                        .jdbcProperties(c.jdbcProperties());
        config.serverId().ifPresent(id -> builder.serverId(id.first()));
        // chunk size, fetch size, chunk key column and lock-wait budget are validated by the
        // table config; the source takes them once it reads snapshots (initial/snapshot modes,
        // which it refuses until then: see checkSupported).
        return builder.build();
    }

    /**
     * Fails at planning time, naming the option, when the DataStream source refuses the
     * configuration, in particular a startup mode this version of the source does not support.
     */
    static void checkSupported(CapstanMySqlTableConfig config) {
        try {
            build(config, new RowDataDeserializer(TypeInformation.of(RowData.class)));
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            if (config.startupMode().readsSnapshot()) {
                throw new ValidationException(
                        "scan.startup.mode '"
                                + config.startupMode().optionValue()
                                + "'"
                                + (config.startupMode() == TableStartupMode.INITIAL ? " (the default)" : "")
                                + " reads a snapshot of the existing rows, which this version of"
                                + " capstan-mysql does not support yet. Set 'scan.startup.mode' to"
                                + " 'latest-offset', 'earliest-offset', 'specific-offset' or"
                                + " 'timestamp'.",
                        e);
            }
            throw new ValidationException(
                    "The capstan-mysql source refused the table options: " + e.getMessage(), e);
        }
    }

    static TableSelection tableSelection(CapstanMySqlTableConfig config) {
        return TableSelection.of(List.of(config.databasePattern()), List.of(tableListEntry(config)));
    }

    private static String tableListEntry(CapstanMySqlTableConfig config) {
        return ANY_DATABASE + "." + config.tablePattern();
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
