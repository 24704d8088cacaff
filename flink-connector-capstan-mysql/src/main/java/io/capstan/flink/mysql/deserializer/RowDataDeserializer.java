package io.capstan.flink.mysql.deserializer;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.ChangeEvent;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
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
 * <p>The rows keep the table's column order. All captured tables must share the row type the given
 * type information describes (for Flink's table runtime: {@code InternalTypeInfo.of(rowType)});
 * capture tables of different shapes with one source per shape or with a custom deserializer.
 *
 * <p>When the type information is Flink's {@code InternalTypeInfo} of a {@link RowType}, each table
 * schema met is checked once against it by column name and position, and by each column's internal
 * data class (and a DECIMAL's precision and scale): after an ALTER that adds, drops, renames, moves
 * or retypes a column the rows would no longer fit their declared fields, so the job halts ({@code
 * invalid_configuration}) naming the table and the column instead of emitting shifted or misread
 * values. A table created while the job runs (captured from its CREATE on) is checked the same way
 * when its first row arrives. A TRUNCATE (option {@code binlog.truncate.handling} = {@code emit})
 * cannot be expressed as a row and halts as well.
 */
@PublicEvolving
public final class RowDataDeserializer implements CapstanDeserializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<RowData> producedType;
    private final RowType declared; // null: the type information names no fields

    private transient TableSchema lastChecked;

    /** The last schema that passed, per table: a changed schema object is compared once. */
    private transient Map<TableId, TableSchema> checked;

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
                check(event);
                out.collect(withKind(event.after(), RowKind.INSERT));
                break;
            case UPDATE:
                check(event);
                out.collect(withKind(event.before(), RowKind.UPDATE_BEFORE));
                out.collect(withKind(event.after(), RowKind.UPDATE_AFTER));
                break;
            case DELETE:
                check(event);
                out.collect(withKind(event.before(), RowKind.DELETE));
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
            default:
                throw new IllegalStateException("unknown operation " + event.operation());
        }
    }

    /** Checks each table schema once (one identity test per row while the schema stays). */
    private void check(ChangeEvent event) {
        TableSchema schema = event.schema();
        if (schema == lastChecked || declared == null) {
            return;
        }
        if (checked == null) {
            checked = new HashMap<>();
        }
        TableSchema passed = checked.get(event.tableId());
        if (passed != schema && !schema.equals(passed)) {
            String problem = mismatch(declared.getFieldNames(), schema.rowType().getFieldNames());
            if (problem == null) {
                problem = typeMismatch(declared, schema.rowType());
            }
            if (problem != null) {
                throw new CapstanHaltException(
                        HaltReason.INVALID_CONFIGURATION,
                        "table "
                                + event.tableId().quoted()
                                + " no longer fits the row type declared to RowDataDeserializer: "
                                + problem
                                + " (an ALTER TABLE changed its columns, or the table was created"
                                + " while the job ran with other columns). Remedy: declare the"
                                + " table's columns, in its order and with its types, and restart"
                                + " the job.");
            }
        }
        checked.put(event.tableId(), schema);
        lastChecked = schema;
    }

    /**
     * The first column whose values the declared field would misread, or null: the internal data
     * class must be the same (an INT read as BIGINT fails, a VARCHAR(10) read as STRING does not),
     * and a DECIMAL's precision and scale (its storage depends on them).
     */
    static String typeMismatch(RowType declared, RowType table) {
        for (int i = 0; i < table.getFieldCount(); i++) {
            LogicalType d = declared.getTypeAt(i);
            LogicalType t = table.getTypeAt(i);
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
                        + table.getFieldNames().get(i)
                        + "' is read as "
                        + t.asSummaryString()
                        + ", declared "
                        + d.asSummaryString();
            }
        }
        return null;
    }

    /** The first difference between the declared and the table's columns, or null. */
    static String mismatch(List<String> declared, List<String> table) {
        int n = Math.min(declared.size(), table.size());
        for (int i = 0; i < n; i++) {
            String d = declared.get(i);
            String t = table.get(i);
            if (d.equalsIgnoreCase(t)) {
                continue;
            }
            if (indexOf(table, d) < 0) {
                return "declared column '" + d + "' is not a column of the table";
            }
            if (indexOf(declared, t) < 0) {
                return "column '" + t + "' of the table is not declared";
            }
            return "column '"
                    + t
                    + "' is column "
                    + (i + 1)
                    + " of the table but field "
                    + (indexOf(declared, t) + 1)
                    + " of the declared row type";
        }
        if (table.size() > n) {
            return "column '" + table.get(n) + "' of the table is not declared";
        }
        if (declared.size() > n) {
            return "declared column '" + declared.get(n) + "' is not a column of the table";
        }
        return null;
    }

    private static int indexOf(List<String> names, String name) {
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
