package io.capstan.flink.mysql.bench.flink120;

/** What one cold-run JVM measures: which source feeds the counting sink. */
public enum ColdRunVariant {
    /** Flink CDC's mysql-cdc, {@code scan.startup.mode = 'snapshot'} (bounded). */
    CDC_SNAPSHOT("cdc-snapshot", "mysql-cdc", false),
    /** Flink CDC's mysql-cdc from the GTID set before the change workload. */
    CDC_BINLOG("cdc-binlog", "mysql-cdc", true),
    /** capstan-mysql's SQL connector, {@code scan.startup.mode = 'snapshot'} (bounded). */
    CAPSTAN_SQL_SNAPSHOT("capstan-sql-snapshot", "capstan-mysql", false),
    /** capstan-mysql's SQL connector from the GTID set before the change workload. */
    CAPSTAN_SQL_BINLOG("capstan-sql-binlog", "capstan-mysql", true),
    /** Flink's floor: a trivial bounded SQL source (datagen) on the same path, no database. */
    FLOOR_SQL("floor-sql", "datagen", false);

    private final String id;
    private final String connector;
    private final boolean readsBinlog;

    ColdRunVariant(String id, String connector, boolean readsBinlog) {
        this.id = id;
        this.connector = connector;
        this.readsBinlog = readsBinlog;
    }

    /** The name the benchmark passes as {@code --variant}. */
    public String id() {
        return id;
    }

    /** The table's {@code 'connector'} option. */
    public String connector() {
        return connector;
    }

    /** Streams the binary log from {@code --gtid-before} (unbounded: cancelled once complete). */
    public boolean readsBinlog() {
        return readsBinlog;
    }

    public static ColdRunVariant byId(String id) {
        for (ColdRunVariant v : values()) {
            if (v.id.equals(id)) {
                return v;
            }
        }
        throw new IllegalArgumentException(
                "--variant must be one of cdc-snapshot, cdc-binlog, capstan-sql-snapshot,"
                        + " capstan-sql-binlog, floor-sql");
    }
}
