package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The table-level choices some declared-type conversions need, fixed when the table is planned.
 *
 * @param wallClockZone the zone whose wall clock a MySQL {@code TIMESTAMP} declared {@code
 *     TIMESTAMP(p)} shows: {@code server-time-zone}, else the server's own {@code time_zone}; null
 *     when no such column is declared (nothing needed to ask the server)
 * @param legacyJson {@code use.legacy.json.format}: JSON text without the space MySQL prints after
 *     {@code ,} and {@code :}
 * @param opTsNotNull whether {@code op_ts} is declared {@code NOT NULL}, as mysql-cdc has it: it is
 *     then 0 (the epoch) for rows read by the snapshot, else NULL
 * @param absentColumns the declared columns each matched table lacks when the table is planned (a
 *     shard of another shape): NULL in its rows. Only tables that lack one are keys.
 * @param binaryText how binary columns declared {@code STRING} are encoded ({@code
 *     debezium.binary.handling.mode}); {@link BinaryTextEncoding#BYTES} when they are not
 * @param opTsEpoch {@code metadata.op-ts.snapshot-rows} = {@code epoch}: a nullable {@code op_ts}
 *     is 0 (the epoch) for rows read by the snapshot, as in mysql-cdc, instead of NULL
 */
@Internal
public record DeclaredValueSettings(
        @Nullable ZoneId wallClockZone,
        boolean legacyJson,
        boolean opTsNotNull,
        Map<TableId, Set<String>> absentColumns,
        BinaryTextEncoding binaryText,
        boolean opTsEpoch)
        implements Serializable {

    /**
     * MySQL's JSON text as printed, no wall-clock zone, a nullable {@code op_ts}: the values as the
     * connector maps them (docs/types.md).
     */
    public static final DeclaredValueSettings AS_MAPPED =
            new DeclaredValueSettings(null, false, false);

    public DeclaredValueSettings {
        absentColumns = copyOf(absentColumns);
    }

    /** Settings for tables that have every declared column. */
    public DeclaredValueSettings(
            @Nullable ZoneId wallClockZone, boolean legacyJson, boolean opTsNotNull) {
        this(wallClockZone, legacyJson, opTsNotNull, Map.of(), BinaryTextEncoding.BYTES, false);
    }

    /** Whether a value of {@code column} declared {@code declared} is the text of its bytes. */
    boolean readsBinaryAsText(@Nullable ColumnSchema column, LogicalType declared) {
        return binaryText != BinaryTextEncoding.BYTES
                && column != null
                && column.type().isBinaryString()
                && DebeziumValueOptions.isString(declared);
    }

    /** Whether {@code table} lacked the declared column {@code column} when it was planned. */
    public boolean lacks(TableId table, String column) {
        Set<String> absent = absentColumns.get(table);
        return absent != null && absent.contains(column);
    }

    /** A serializable, ordered copy (a {@code Map.of} is not meant for Java serialization). */
    private static Map<TableId, Set<String>> copyOf(Map<TableId, Set<String>> columns) {
        TreeMap<TableId, Set<String>> copy = new TreeMap<>();
        columns.forEach((t, c) -> copy.put(t, new TreeSet<>(c)));
        return Collections.unmodifiableMap(copy);
    }

    /**
     * The settings of a declared table that {@link DeclaredSchemaCheck} accepted.
     *
     * @param tables the matched MySQL tables
     * @param serverZone asked only when a MySQL TIMESTAMP is declared a wall clock and {@code
     *     server-time-zone} is not set
     */
    static DeclaredValueSettings of(
            ResolvedSchema declared,
            List<MySqlTableShape> tables,
            ReadableConfig options,
            BinaryTextEncoding binaryText,
            Supplier<ZoneId> serverZone) {
        String opTs = options.get(CapstanMySqlTableOptions.METADATA_OP_TS_SNAPSHOT_ROWS).trim();
        if (!opTs.equals(CapstanMySqlTableOptions.OP_TS_NULL)
                && !opTs.equals(CapstanMySqlTableOptions.OP_TS_EPOCH)) {
            throw new ValidationException(
                    "Option '"
                            + CapstanMySqlTableOptions.METADATA_OP_TS_SNAPSHOT_ROWS.key()
                            + "' must be 'null' or 'epoch'.");
        }
        ZoneId zone = null;
        List<String> wallClocks = new ArrayList<>();
        for (MySqlTableShape table : tables) {
            for (String c : wallClockTimestamps(declared, table)) {
                if (!wallClocks.contains(c)) {
                    wallClocks.add(c);
                }
            }
        }
        if (!wallClocks.isEmpty()) {
            zone =
                    options.getOptional(CapstanMySqlTableOptions.SERVER_TIME_ZONE)
                            .map(z -> ZoneId.of(z.trim()))
                            .orElseGet(serverZone);
            refuseAmbiguousKey(declared, wallClocks, zone);
        }
        boolean opTsNotNull =
                declared.getColumns().stream()
                        .filter(c -> c instanceof Column.MetadataColumn)
                        .map(c -> (Column.MetadataColumn) c)
                        .anyMatch(
                                c ->
                                        c.getMetadataKey()
                                                        .orElse(c.getName())
                                                        .equals(MetadataColumn.OP_TS.key())
                                                && !c.getDataType().getLogicalType().isNullable());
        return new DeclaredValueSettings(
                zone,
                options.get(MySqlCdcCompatibleOptions.USE_LEGACY_JSON_FORMAT),
                opTsNotNull,
                DeclaredSchemaCheck.absentColumns(declared, tables),
                binaryText,
                opTs.equals(CapstanMySqlTableOptions.OP_TS_EPOCH));
    }

    /** The declared columns that show a MySQL TIMESTAMP as a wall clock. */
    private static List<String> wallClockTimestamps(
            ResolvedSchema declared, MySqlTableShape table) {
        List<String> names = new ArrayList<>();
        for (Column c : declared.getColumns()) {
            if (c.isPhysical()
                    && c.getDataType().getLogicalType().getTypeRoot()
                            == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
                ColumnSchema mysql =
                        table.column(c.getName())
                                .map(MySqlTableShape.Column::mysqlColumn)
                                .orElse(null);
                if (mysql != null && mysql.type() == MySqlType.TIMESTAMP) {
                    names.add(c.getName());
                }
            }
        }
        return names;
    }

    /**
     * In a zone with daylight saving, two instants of the hour the clocks go back show the same
     * wall clock: as a key, they would merge two MySQL rows into one Flink row.
     */
    private static void refuseAmbiguousKey(
            ResolvedSchema declared, List<String> wallClocks, ZoneId zone) {
        if (zone.getRules().isFixedOffset()) {
            return;
        }
        List<String> key = declared.getPrimaryKey().map(k -> k.getColumns()).orElse(List.of());
        for (String column : wallClocks) {
            if (key.contains(column)) {
                throw new ValidationException(
                        "Column '"
                                + column
                                + "' is part of the declared PRIMARY KEY and shows a MySQL TIMESTAMP"
                                + " as a wall clock in zone "
                                + zone
                                + ", which repeats an hour when the clocks go back: two rows could"
                                + " get the same key. Declare it TIMESTAMP_LTZ(p) (the instant), or set 'server-time-zone' to a fixed offset"
                                + " such as '+01:00'.");
            }
        }
    }
}
