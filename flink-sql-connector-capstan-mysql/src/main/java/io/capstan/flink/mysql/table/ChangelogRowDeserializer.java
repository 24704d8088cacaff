package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns change events into the rows a {@code capstan-mysql} table produces: the projected physical
 * columns in the order the planner asked for, then the requested metadata columns, with the change
 * kind ({@code +I}, {@code -U}/{@code +U}, {@code -D}).
 *
 * <p>Columns are found by name in the MySQL table once per table schema (a {@link Projection}),
 * never per row; each row then costs one {@link GenericRowData} and its field copies.
 */
final class ChangelogRowDeserializer implements CapstanDeserializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<RowData> producedType;
    private final String[] fieldNames;
    private final LogicalType[] fieldTypes;
    private final MetadataColumn[] metadata;
    private final DeclaredValueSettings settings;

    /** Every row +I; {@code row_kind} still tells the change's own kind. */
    private final boolean appendOnly;

    private transient TableSchema lastSchema;
    private transient Projection lastProjection;
    private transient Map<TableSchema, Projection> projections;
    private transient MetadataColumn.EventNames names;

    /** With the values as mapped ({@link DeclaredValueSettings#AS_MAPPED}). */
    ChangelogRowDeserializer(
            TypeInformation<RowData> producedType,
            RowType physicalFields,
            List<MetadataColumn> metadata) {
        this(producedType, physicalFields, metadata, DeclaredValueSettings.AS_MAPPED);
    }

    /**
     * @param physicalFields the physical columns to produce, by declared name and type
     * @param metadata the metadata columns appended after them
     * @param settings the zone and JSON form some declared types need
     */
    ChangelogRowDeserializer(
            TypeInformation<RowData> producedType,
            RowType physicalFields,
            List<MetadataColumn> metadata,
            DeclaredValueSettings settings) {
        this(producedType, physicalFields, metadata, settings, false);
    }

    /**
     * @param appendOnly every change as an appended {@code +I} row ({@code
     *     scan.read-changelog-as-append-only.enabled}); the {@code row_kind} metadata column tells
     *     what it was
     */
    ChangelogRowDeserializer(
            TypeInformation<RowData> producedType,
            RowType physicalFields,
            List<MetadataColumn> metadata,
            DeclaredValueSettings settings,
            boolean appendOnly) {
        this.appendOnly = appendOnly;
        this.producedType = producedType;
        this.fieldNames = physicalFields.getFieldNames().toArray(new String[0]);
        this.fieldTypes = physicalFields.getChildren().toArray(new LogicalType[0]);
        this.metadata = metadata.toArray(new MetadataColumn[0]);
        this.settings = settings;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<RowData> out) {
        if (event.operation() == Operation.TRUNCATE) {
            // Planning refuses binlog.truncate.handling = 'emit' for SQL tables.
            throw new IllegalStateException(
                    "a TRUNCATE event reached a Flink SQL table of " + event.tableId().quoted());
        }
        Projection projection = projectionFor(event);
        switch (event.operation()) {
            case READ:
            case INSERT:
                out.collect(row(projection, event.after(), RowKind.INSERT, event));
                break;
            case UPDATE:
                out.collect(row(projection, event.before(), RowKind.UPDATE_BEFORE, event));
                out.collect(row(projection, event.after(), RowKind.UPDATE_AFTER, event));
                break;
            case DELETE:
                out.collect(row(projection, event.before(), RowKind.DELETE, event));
                break;
            default:
                throw new IllegalStateException("unknown operation " + event.operation());
        }
    }

    private RowData row(Projection projection, RowData image, RowKind kind, ChangeEvent event) {
        int physical = fieldNames.length;
        GenericRowData row =
                new GenericRowData(appendOnly ? RowKind.INSERT : kind, physical + metadata.length);
        projection.copy(image, row, event);
        for (int i = 0; i < metadata.length; i++) {
            row.setField(physical + i, metadata[i].read(event, kind, names));
        }
        return row;
    }

    private Projection projectionFor(ChangeEvent event) {
        TableSchema schema = event.schema();
        if (schema == lastSchema) {
            return lastProjection;
        }
        if (projections == null) {
            projections = new HashMap<>();
            names = new MetadataColumn.EventNames();
        }
        Projection p = projections.computeIfAbsent(schema, s -> new Projection(event, s.rowType()));
        lastSchema = schema;
        lastProjection = p;
        return p;
    }

    /** Where each produced field comes from in one table schema, and how it is widened. */
    private final class Projection {
        private final int[] sourceIndex;
        private final RowData.FieldGetter[] getters;
        private final FieldWidening[] widenings;

        Projection(ChangeEvent event, RowType tableRow) {
            int n = fieldNames.length;
            sourceIndex = new int[n];
            getters = new RowData.FieldGetter[n];
            widenings = new FieldWidening[n];
            List<String> columns = tableRow.getFieldNames();
            for (int i = 0; i < n; i++) {
                int index = indexOf(columns, fieldNames[i]);
                if (index < 0 && settings.lacks(event.tableId(), fieldNames[i])) {
                    // a shard without this declared nullable column: NULL in its rows
                    sourceIndex[i] = -1;
                    getters[i] = row -> null;
                    widenings[i] = FieldWidening.IDENTITY;
                    continue;
                }
                if (index < 0) {
                    throw drifted(event, "column '" + fieldNames[i] + "' is not among its columns");
                }
                LogicalType mapped = tableRow.getTypeAt(index);
                ColumnSchema column = event.schema().column(index);
                if (!settings.readsBinaryAsText(column, fieldTypes[i])
                        && !DeclaredTypeRule.fitsAtRuntime(column, mapped, fieldTypes[i])) {
                    throw drifted(
                            event,
                            "column '"
                                    + fieldNames[i]
                                    + "' is now read as "
                                    + mapped.asSummaryString()
                                    + ", which the declared "
                                    + fieldTypes[i].asSummaryString()
                                    + " cannot hold");
                }
                if (column.type() == MySqlType.TIMESTAMP
                        && fieldTypes[i].getTypeRoot()
                                == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        && settings.wallClockZone() == null) {
                    // A column ALTERed to TIMESTAMP: its wall clock needs the zone that is only
                    // asked at planning, when the table had a wall-clock TIMESTAMP.
                    throw drifted(
                            event,
                            "column '"
                                    + fieldNames[i]
                                    + "' is now a MySQL TIMESTAMP, whose wall clock needs the time"
                                    + " zone asked when the query is planned");
                }
                sourceIndex[i] = index;
                // nullable: Flink 1.20's getter of a NOT NULL type skips the null check (2.x
                // does not), and a NULL in a NOT NULL column is told apart below
                getters[i] = RowData.createFieldGetter(mapped.copy(true), index);
                widenings[i] = FieldWidening.between(column, mapped, fieldTypes[i], settings);
            }
        }

        void copy(RowData image, GenericRowData target, ChangeEvent event) {
            for (int i = 0; i < getters.length; i++) {
                Object value = getters[i].getFieldOrNull(image);
                if (value == null && !fieldTypes[i].isNullable()) {
                    throw nullInNotNull(event, fieldNames[i]);
                }
                target.setField(i, value == null ? null : widen(i, value, event));
            }
        }

        private Object widen(int field, Object value, ChangeEvent event) {
            try {
                return widenings[field].widen(value);
            } catch (FieldWidening.DoesNotFit e) {
                throw valueDoesNotFit(event, fieldNames[field], fieldTypes[field], e);
            }
        }
    }

    private static int indexOf(List<String> columns, String name) {
        int index = columns.indexOf(name);
        if (index >= 0) {
            return index;
        }
        // MySQL column names are case-insensitive.
        String lower = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).toLowerCase(Locale.ROOT).equals(lower)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A NULL where the CREATE TABLE says NOT NULL: Flink trusts the declaration (the planner drops
     * null checks), so the row must not pass. MySQL lets it happen for a NOT NULL column only with
     * a zero date, which capstan reads as NULL.
     */
    private static CapstanHaltException nullInNotNull(ChangeEvent event, String column) {
        return doesNotFit(
                event,
                ": column '"
                        + column
                        + "' is declared NOT NULL, but a row holds NULL there (MySQL"
                        + " zero dates such as '0000-00-00' are read as NULL, also in NOT NULL columns)",
                "declare the column without NOT NULL (and outside the PRIMARY KEY), or replace the"
                        + " zero dates in MySQL");
    }

    /**
     * A value the declared type cannot hold (a MySQL TIME outside one day declared TIME, a DOUBLE
     * too large for the declared DECIMAL): halt rather than wrap or cut it. Names table, column and
     * types, never the value.
     */
    private static CapstanHaltException valueDoesNotFit(
            ChangeEvent event, String column, LogicalType declared, FieldWidening.DoesNotFit e) {
        return doesNotFit(
                event,
                ": column '"
                        + column
                        + "' holds a value that the declared "
                        + declared.asSummaryString()
                        + " cannot hold: it "
                        + e.limit(),
                e.remedy());
    }

    private static CapstanHaltException drifted(ChangeEvent event, String what) {
        return doesNotFit(
                event,
                " changed, or was created, after the Flink table was planned: " + what,
                "update the CREATE TABLE statement to fit the MySQL table");
    }

    /**
     * The table's rows no longer fit the declared Flink table: name it, the problem and the remedy.
     */
    private static CapstanHaltException doesNotFit(
            ChangeEvent event, String problem, String remedy) {
        return new CapstanHaltException(
                HaltReason.INVALID_CONFIGURATION,
                "table "
                        + event.tableId().quoted()
                        + problem
                        + ". Remedy: "
                        + remedy
                        + " and restart the job.");
    }
}
