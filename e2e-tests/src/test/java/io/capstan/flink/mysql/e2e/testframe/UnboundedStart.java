package io.capstan.flink.mysql.e2e.testframe;

import io.capstan.flink.mysql.StartupOptions;

/**
 * How an unbounded source of the suite starts. The framework writes part of the data before the job
 * starts, so the start must include it.
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

        @Override
        boolean runsBoundedCases() {
            return true;
        }
    },

    /**
     * The default mode, {@code initial}: rows written before the job starts come from the snapshot
     * (chunks read at an exact GTID position), rows written later from the binlog after the
     * handoff.
     */
    INITIAL {
        @Override
        StartupOptions startupOptions(String gtidsBeforeWrites) {
            return StartupOptions.initial();
        }

        @Override
        boolean runsBoundedCases() {
            return false;
        }
    };

    abstract StartupOptions startupOptions(String gtidsBeforeWrites);

    /**
     * Whether this context also runs the bounded cases. Bounded reading is the same {@code
     * snapshot} mode in every context, so only one context runs it.
     */
    abstract boolean runsBoundedCases();

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
