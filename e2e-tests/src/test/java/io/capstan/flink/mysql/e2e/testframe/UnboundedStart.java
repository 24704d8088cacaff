package io.capstan.flink.mysql.e2e.testframe;

import io.capstan.flink.mysql.StartupOptions;

/**
 * How an unbounded source of the suite starts. The framework writes part of the data before the
 * job starts, so the start must include it.
 */
enum UnboundedStart {
    /**
     * Stream the binlog from {@code @@global.gtid_executed} as read when the test case began,
     * before it created its tables: everything the case writes, before or after the job starts,
     * comes from the binlog.
     */
    BINLOG_FROM_CASE_START {
        @Override
        StartupOptions startupOptions(String gtidsBeforeWrites) {
            return StartupOptions.gtidSet(gtidsBeforeWrites);
        }
    };

    abstract StartupOptions startupOptions(String gtidsBeforeWrites);

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
