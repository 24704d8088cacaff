package io.capstan.flink.mysql.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

import java.util.List;

/**
 * Options of Flink CDC's {@code mysql-cdc} that {@code capstan-mysql} accepts without using them,
 * so that a table written for {@code mysql-cdc} runs with only the connector renamed. Each is
 * declared with {@code mysql-cdc}'s key, type and default, so a value of the wrong type is still
 * refused by name. Two are flags for capabilities: the value capstan always has is accepted, the
 * other refused with what to do instead. Why each no-op is moot is documented in docs/sql.md.
 */
@Internal
public final class MySqlCdcCompatibleOptions {

    private MySqlCdcCompatibleOptions() {}

    /** capstan always reads the snapshot in chunks at exact positions: {@code true} only. */
    public static final ConfigOption<Boolean> SCAN_INCREMENTAL_SNAPSHOT_ENABLED =
            ConfigOptions.key("scan.incremental.snapshot.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "mysql-cdc's. `true` is what capstan always does (chunks"
                                    + " read at exact positions, no global read lock); `false`"
                                    + " is refused.");

    public static final ConfigOption<Boolean> SCAN_INCREMENTAL_SNAPSHOT_BACKFILL_SKIP =
            ConfigOptions.key("scan.incremental.snapshot.backfill.skip")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "mysql-cdc's; **no-op**: chunks are read at exact"
                                    + " positions and need no backfill. See [Accepted mysql-cdc"
                                    + " options](sql.md#accepted-mysql-cdc-options).");

    public static final ConfigOption<Boolean> SCAN_INCREMENTAL_CLOSE_IDLE_READER_ENABLED =
            ConfigOptions.key("scan.incremental.close-idle-reader.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "mysql-cdc's; **no-op**: readers without the binlog split"
                                    + " always finish after the snapshot. See [Accepted"
                                    + " mysql-cdc options](sql.md#accepted-mysql-cdc-options).");

    public static final ConfigOption<Integer> CHUNK_META_GROUP_SIZE =
            ConfigOptions.key("chunk-meta.group.size")
                    .intType()
                    .defaultValue(1000)
                    .withDescription(
                            "mysql-cdc's; **no-op**: finished chunks travel in the"
                                    + " binlog split's compact cursor gate. See [Accepted"
                                    + " mysql-cdc options](sql.md#accepted-mysql-cdc-options).");

    public static final ConfigOption<Double> CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_UPPER_BOUND =
            ConfigOptions.key("chunk-key.even-distribution.factor.upper-bound")
                    .doubleType()
                    .defaultValue(1000.0d)
                    .withFallbackKeys("split-key.even-distribution.factor.upper-bound")
                    .withDescription(
                            "mysql-cdc's (also under its old name"
                                    + " `split-key.even-distribution.factor.upper-bound`);"
                                    + " **no-op**: the chunk planner decides from `MIN`, `MAX`"
                                    + " and the row estimate itself. See [Accepted mysql-cdc"
                                    + " options](sql.md#accepted-mysql-cdc-options).");

    public static final ConfigOption<Double> CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_LOWER_BOUND =
            ConfigOptions.key("chunk-key.even-distribution.factor.lower-bound")
                    .doubleType()
                    .defaultValue(0.05d)
                    .withFallbackKeys("split-key.even-distribution.factor.lower-bound")
                    .withDescription(
                            "mysql-cdc's (also under its old name"
                                    + " `split-key.even-distribution.factor.lower-bound`);"
                                    + " **no-op**: the chunk planner decides from `MIN`, `MAX`"
                                    + " and the row estimate itself. See [Accepted mysql-cdc"
                                    + " options](sql.md#accepted-mysql-cdc-options).");

    public static final ConfigOption<Boolean> SCAN_INCREMENTAL_SNAPSHOT_UNBOUNDED_CHUNK_FIRST =
            ConfigOptions.key("scan.incremental.snapshot.unbounded-chunk-first.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "mysql-cdc's; **no-op**: a table's last chunk is planned"
                                    + " when reached and bounded like the others. See [Accepted"
                                    + " mysql-cdc options](sql.md#accepted-mysql-cdc-options).");

    /**
     * mysql-cdc's JSON text form, with the same meaning and default: {@code true} prints JSON
     * without the space after {@code ,} and {@code :} ({@link LegacyJsonText}), {@code false} as
     * MySQL prints it. Not a no-op, so not in {@link #ALL}.
     */
    public static final ConfigOption<Boolean> USE_LEGACY_JSON_FORMAT =
            ConfigOptions.key("use.legacy.json.format")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "mysql-cdc's, same meaning: `JSON` column text without"
                                    + " the space after `,` and `:` (`true`), or as MySQL"
                                    + " prints it (`false`, one space after each); see [Columns"
                                    + " and types](sql.md#columns-and-types).");

    /** Every no-op and flag option declared here, for the factory's optional options. */
    static final List<ConfigOption<?>> ALL =
            List.of(
                    SCAN_INCREMENTAL_SNAPSHOT_ENABLED,
                    SCAN_INCREMENTAL_SNAPSHOT_BACKFILL_SKIP,
                    SCAN_INCREMENTAL_CLOSE_IDLE_READER_ENABLED,
                    CHUNK_META_GROUP_SIZE,
                    CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_UPPER_BOUND,
                    CHUNK_KEY_EVEN_DISTRIBUTION_FACTOR_LOWER_BOUND,
                    SCAN_INCREMENTAL_SNAPSHOT_UNBOUNDED_CHUNK_FIRST);

    /**
     * Reads every option (so a value of the wrong type fails naming it) and refuses the flag values
     * capstan does not have, each with a one-line remedy.
     */
    static void check(ReadableConfig options) {
        ALL.forEach(options::get);
        if (!options.get(SCAN_INCREMENTAL_SNAPSHOT_ENABLED)) {
            throw new ValidationException(
                    "Option '"
                            + SCAN_INCREMENTAL_SNAPSHOT_ENABLED.key()
                            + "' = 'false' is not supported: capstan always reads the snapshot in"
                            + " chunks at exact positions, without a global read lock; remove the"
                            + " option or set it to 'true'.");
        }
    }
}
