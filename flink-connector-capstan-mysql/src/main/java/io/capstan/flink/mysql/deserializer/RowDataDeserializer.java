package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeUtils;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Emits each change as Flink {@link RowData} with its {@link RowKind}: INSERT and snapshot READ as
 * {@code +I}, UPDATE as {@code -U} (before) then {@code +U} (after), DELETE as {@code -D}.
 *
 * <p>When the type information is Flink's {@code InternalTypeInfo} of a {@link RowType}, each
 * declared field is found by name (ignoring case, as MySQL does) among the table's columns, once
 * per table schema met, as the Flink SQL connector does: a column added, dropped, renamed or moved
 * that is not declared changes nothing downstream. A declared column that is gone, or whose values
 * its field would misread (another internal data class, or a DECIMAL of another precision or
 * scale), halts ({@code invalid_configuration}) naming the table and the column instead of emitting
 * shifted or misread values. A VARCHAR made longer still fits a STRING. A table created while the
 * job runs (captured from its CREATE on) is checked the same way when its first row arrives. When
 * the table's columns are the declared ones in their order, rows pass without a copy. A TRUNCATE
 * (option {@code binlog.truncate.handling} = {@code emit}) cannot be expressed as a row and halts.
 *
 * <p>Without a row type (other type information), rows keep the table's column order and all
 * captured tables must share one shape.
 */
@PublicEvolving
public final class RowDataDeserializer implements CapstanDeserializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<RowData> producedType;
    private final RowType declared; // null: the type information names no fields

    private transient TableSchema lastSchema;
    private transient Projection lastProjection;

    /** Per table schema met: where each declared field comes from (a few entries per table). */
    private transient Map<TableSchema, Projection> projections;

    public RowDataDeserializer(TypeInformation<RowData> producedType) {
        this.producedType = Objects.requireNonNull(producedType, "producedType");
        this.declared = declaredRowType(producedType);
    }

    /**
     * The row type of Flink's {@code InternalTypeInfo}, found through its {@code toLogicalType()}:
     * the table runtime it lives in is not a dependency of this connector.
     */
    private static RowType declaredRowType(TypeInformation<RowData> type) {
        try {
            Method m = type.getClass().getMethod("toLogicalType");
            Object logical = m.invoke(type);
            if (logical instanceof RowType) {
                return (RowType) logical;
            }
        } catch (NoSuchMethodException | IllegalAccessException e) {
            // another kind of type information: no field names to check against
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(
                    "the produced type's toLogicalType() failed", e.getCause());
        }
        return null;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    @Override
    public void deserialize(ChangeEvent event, Collector<RowData> out) {
        switch (event.operation()) {
            case READ:
            case INSERT:
                out.collect(projected(event, event.after(), RowKind.INSERT));
                break;
            case UPDATE:
                out.collect(projected(event, event.before(), RowKind.UPDATE_BEFORE));
                out.collect(projected(event, event.after(), RowKind.UPDATE_AFTER));
                break;
            case DELETE:
                out.collect(projected(event, event.before(), RowKind.DELETE));
                break;
            case TRUNCATE:
                throw new CapstanHaltException(
                        HaltReason.CAPTURED_TABLE_TRUNCATED,
                        "captured table "
                                + event.tableId()
                                + " was truncated in transaction "
                                + event.gtid()
                                + ", and RowDataDeserializer cannot express a TRUNCATE as rows"
                                + " (option binlog.truncate.handling is 'emit'). Remedy: set it to"
                                + " 'halt' or 'skip', or use a deserializer that handles"
                                + " Operation.TRUNCATE (JsonDebeziumDeserializer); restart the job"
                                + " without state to snapshot the table again.");
            case SCHEMA_CHANGE:
                // no row: the by-name mapping above follows the rows' own schemas
                break;
            default:
                throw new IllegalStateException("unknown operation " + event.operation());
        }
    }

    private RowData projected(ChangeEvent event, RowData image, RowKind kind) {
        if (declared == null) {
            return withKind(image, kind);
        }
        TableSchema schema = event.schema();
        if (schema != lastSchema) {
            if (projections == null) {
                projections = new HashMap<>();
            }
            Projection p = projections.get(schema);
            if (p == null) {
                p = projection(event.tableId(), declared, schema.rowType());
                projections.put(schema, p);
            }
            lastSchema = schema;
            lastProjection = p;
        }
        if (lastProjection.identity) {
            return withKind(image, kind);
        }
        return lastProjection.copy(image, kind);
    }

    /** Where each declared field is in a table's row, or the halt naming the first misfit. */
    static Projection projection(TableId table, RowType declared, RowType tableRow) {
        String problem = mismatch(declared.getFieldNames(), tableRow.getFieldNames());
        if (problem == null) {
            problem = typeMismatch(declared, tableRow);
        }
        if (problem != null) {
            throw new CapstanHaltException(
                    HaltReason.INVALID_CONFIGURATION,
                    "table "
                            + table.quoted()
                            + " no longer fits the row type declared to RowDataDeserializer: "
                            + problem
                            + " (an ALTER TABLE dropped, renamed or retyped a declared column, or"
                            + " the table was created while the job ran with other columns)."
                            + " Remedy: declare only columns the table has, with types that read"
                            + " them (see docs/types.md), and restart the job.");
        }
        List<String> columns = tableRow.getFieldNames();
        int n = declared.getFieldCount();
        int[] source = new int[n];
        RowData.FieldGetter[] getters = new RowData.FieldGetter[n];
        boolean identity = n == columns.size();
        for (int i = 0; i < n; i++) {
            source[i] = indexOf(columns, declared.getFieldNames().get(i));
            identity &= source[i] == i;
            // nullable: Flink 1.20's getter of a NOT NULL type skips the null check
            getters[i] =
                    RowData.createFieldGetter(tableRow.getTypeAt(source[i]).copy(true), source[i]);
        }
        return new Projection(identity, getters);
    }

    /** The declared fields' places in one table schema. */
    static final class Projection {
        final boolean identity; // the table's columns are the declared ones, in order
        private final RowData.FieldGetter[] getters;

        Projection(boolean identity, RowData.FieldGetter[] getters) {
            this.identity = identity;
            this.getters = getters;
        }

        RowData copy(RowData image, RowKind kind) {
            GenericRowData row = new GenericRowData(kind, getters.length);
            for (int i = 0; i < getters.length; i++) {
                row.setField(i, getters[i].getFieldOrNull(image));
            }
            return row;
        }
    }

    /**
     * The first declared column whose values its field would misread, or null: the internal data
     * class must be the same (an INT read as BIGINT fails, a VARCHAR(10) read as STRING does not),
     * and a DECIMAL's precision and scale (its storage depends on them). Columns are found by name.
     */
    static String typeMismatch(RowType declared, RowType table) {
        for (int i = 0; i < declared.getFieldCount(); i++) {
            String name = declared.getFieldNames().get(i);
            int at = indexOf(table.getFieldNames(), name);
            if (at < 0) {
                continue; // told by mismatch()
            }
            LogicalType d = declared.getTypeAt(i);
            LogicalType t = table.getTypeAt(at);
            boolean fits =
                    LogicalTypeUtils.toInternalConversionClass(d)
                                    == LogicalTypeUtils.toInternalConversionClass(t)
                            && (!(t instanceof DecimalType)
                                    || (d instanceof DecimalType
                                            && ((DecimalType) d).getPrecision()
                                                    == ((DecimalType) t).getPrecision()
                                            && ((DecimalType) d).getScale()
                                                    == ((DecimalType) t).getScale()));
            if (!fits) {
                return "column '"
                        + table.getFieldNames().get(at)
                        + "' is read as "
                        + t.asSummaryString()
                        + ", declared "
                        + d.asSummaryString();
            }
        }
        return null;
    }

    /** The first declared column the table does not have, or null (other columns are ignored). */
    static String mismatch(List<String> declared, List<String> table) {
        for (String d : declared) {
            if (indexOf(table, d) < 0) {
                return "declared column '" + d + "' is not a column of the table";
            }
        }
        return null;
    }

    private static int indexOf(List<String> names, String name) {
        int exact = names.indexOf(name);
        if (exact >= 0) {
            return exact;
        }
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static RowData withKind(RowData row, RowKind kind) {
        // Each image is a fresh object per change (see ChangeEvent), so setting its kind is safe.
        row.setRowKind(kind);
        return row;
    }
}
