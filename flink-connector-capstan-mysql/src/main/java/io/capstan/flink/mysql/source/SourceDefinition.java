package io.capstan.flink.mysql.source;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parts of a source's definition that are not single-valued options: which tables (the
 * builder's {@code databaseList}/{@code tableList}; the SQL connector derives them from {@code
 * database-name}/{@code table-name}), per-table chunk key columns, the columns the snapshot reads
 * (null: all) and the JDBC driver properties ({@code jdbc.properties.*}, without the prefix).
 * {@link CapstanSourceConfig#validate} checks them with the options.
 */
@Internal
public record SourceDefinition(
        List<String> databaseList,
        List<String> tableList,
        Map<String, String> chunkKeyColumnByTable,
        @Nullable List<String> snapshotColumns,
        Map<String, String> jdbcProperties) {

    public SourceDefinition {
        databaseList = Collections.unmodifiableList(new ArrayList<>(databaseList));
        tableList = Collections.unmodifiableList(new ArrayList<>(tableList));
        chunkKeyColumnByTable = Collections.unmodifiableMap(new TreeMap<>(chunkKeyColumnByTable));
        snapshotColumns =
                snapshotColumns == null
                        ? null
                        : Collections.unmodifiableList(new ArrayList<>(snapshotColumns));
        jdbcProperties = Collections.unmodifiableMap(new TreeMap<>(jdbcProperties));
    }

    /**
     * Every part but the driver properties' values, which may be secrets such as {@code
     * trustCertificateKeyStorePassword} (the no-values rule): only their keys, as {@code
     * MySqlConnectionConfig} prints them.
     */
    @Override
    public String toString() {
        return "SourceDefinition[databaseList="
                + databaseList
                + ", tableList="
                + tableList
                + ", chunkKeyColumnByTable="
                + chunkKeyColumnByTable
                + ", snapshotColumns="
                + snapshotColumns
                + ", jdbcProperties="
                + jdbcProperties.keySet()
                + "]";
    }

    /** Tables only: no per-table chunk keys, every column, no driver properties. */
    public static SourceDefinition ofTables(List<String> databaseList, List<String> tableList) {
        return new SourceDefinition(databaseList, tableList, Map.of(), null, Map.of());
    }
}
