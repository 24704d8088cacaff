package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupMode;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_MODE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_FILE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_POS;

/**
 * mysql-cdc's {@code specific-offset} start at a binlog file and position: in that mode, replaced
 * at planning by {@code scan.startup.specific-offset.gtid-set} with the GTID set the server says
 * the position denotes (positions are GTID sets in capstan, so a restored job never depends on a
 * file that may be purged). In other modes the two options are ignored like the other modes'
 * options.
 */
final class FilePositionStart {

    private static final Logger LOG = LoggerFactory.getLogger(FilePositionStart.class);

    private FilePositionStart() {}

    /**
     * Returns {@code options} with the file/position replaced by the GTID set, or unchanged when
     * the mode is not {@code specific-offset} or no file is given.
     */
    static ReadableConfig translate(
            ReadableConfig options, Map<String, String> raw, BinlogPositionTranslator positions) {
        Optional<StartupMode> mode = ModeScopedOptions.mode(options.get(SCAN_STARTUP_MODE));
        Map<String, String> keys = options.toMap();
        boolean file = keys.containsKey(SCAN_STARTUP_SPECIFIC_OFFSET_FILE.key());
        boolean pos = keys.containsKey(SCAN_STARTUP_SPECIFIC_OFFSET_POS.key());
        if (mode.orElse(null) != StartupMode.GTID_SET || (!file && !pos)) {
            return options;
        }
        if (!file || !pos) {
            throw new ValidationException(
                    "Options '"
                            + SCAN_STARTUP_SPECIFIC_OFFSET_FILE.key()
                            + "' and '"
                            + SCAN_STARTUP_SPECIFIC_OFFSET_POS.key()
                            + "' go together: set both, or use '"
                            + SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET.key()
                            + "'.");
        }
        if (keys.containsKey(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET.key())) {
            throw new ValidationException(
                    "Set either '"
                            + SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET.key()
                            + "' or '"
                            + SCAN_STARTUP_SPECIFIC_OFFSET_FILE.key()
                            + "'/'.pos', not both.");
        }
        String binlogFile = options.get(SCAN_STARTUP_SPECIFIC_OFFSET_FILE);
        long position = options.get(SCAN_STARTUP_SPECIFIC_OFFSET_POS);

        // The connection settings, checked as for any mode, from the options without the offset.
        Map<String, String> streamOnly = new HashMap<>(keys);
        streamOnly.remove(SCAN_STARTUP_SPECIFIC_OFFSET_FILE.key());
        streamOnly.remove(SCAN_STARTUP_SPECIFIC_OFFSET_POS.key());
        streamOnly.put(SCAN_STARTUP_MODE.key(), "latest-offset");
        MySqlTableDefinition connectionOnly =
                TableOptionsValidation.validate(Configuration.fromMap(streamOnly), raw, w -> {});
        String gtidSet =
                positions.gtidSetBefore(connectionOnly.source().connection(), binlogFile, position);
        LOG.info(
                "'{}' = '{}' at position {} is the GTID set {}; the job starts after it",
                SCAN_STARTUP_SPECIFIC_OFFSET_FILE.key(),
                binlogFile,
                position,
                gtidSet);

        Map<String, String> translated = new HashMap<>(keys);
        translated.remove(SCAN_STARTUP_SPECIFIC_OFFSET_FILE.key());
        translated.remove(SCAN_STARTUP_SPECIFIC_OFFSET_POS.key());
        translated.put(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET.key(), gtidSet);
        return Configuration.fromMap(translated);
    }
}
