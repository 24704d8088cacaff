package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.StartupOptions;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;

import java.util.Map;
import java.util.Optional;

import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_MODE;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_FILE;
import static io.capstan.flink.mysql.table.CapstanMySqlTableOptions.SCAN_STARTUP_SPECIFIC_OFFSET_POS;

/**
 * mysql-cdc's {@code specific-offset} start at a binlog file and position: in that mode, a {@link
 * StartupOptions#specificOffset(String, long)} that keeps the file and position as given. Planning
 * never asks the server about them: a new job translates them into the GTID set they denote when it
 * plans its binlog split, and a job restored from a checkpoint or savepoint resumes from its state,
 * so resubmitting the same DDL after the file was purged still restores. In other modes the two
 * options are ignored like the other modes' options.
 */
final class FilePositionStart {

    private FilePositionStart() {}

    /**
     * The start position the options describe: a file/position start in {@code specific-offset}
     * mode with the file given, else {@link StartupOptions#fromOptions(ReadableConfig)}.
     *
     * @throws ValidationException when only one of file and position is given, or a GTID set too
     * @throws IllegalArgumentException as {@link StartupOptions#fromOptions(ReadableConfig)}
     */
    static StartupOptions startupOptions(ReadableConfig options) {
        Optional<StartupMode> mode = ModeScopedOptions.mode(options.get(SCAN_STARTUP_MODE));
        Map<String, String> keys = options.toMap();
        boolean file = keys.containsKey(SCAN_STARTUP_SPECIFIC_OFFSET_FILE.key());
        boolean pos = keys.containsKey(SCAN_STARTUP_SPECIFIC_OFFSET_POS.key());
        if (mode.orElse(null) != StartupMode.GTID_SET || (!file && !pos)) {
            return StartupOptions.fromOptions(options);
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
        return StartupOptions.specificOffset(
                options.get(SCAN_STARTUP_SPECIFIC_OFFSET_FILE),
                options.get(SCAN_STARTUP_SPECIFIC_OFFSET_POS));
    }
}
