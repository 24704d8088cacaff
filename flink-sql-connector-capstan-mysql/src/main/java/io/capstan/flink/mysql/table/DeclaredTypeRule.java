package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

import javax.annotation.Nullable;

import java.util.Optional;

/**
 * Decides whether a column declared in {@code CREATE TABLE} can hold every value of the MySQL
 * column, whose values arrive as the Flink type the MySQL type maps to (docs/types.md).
 *
 * <p>The rule: the declared type is accepted when it is the mapped type or a <em>lossless
 * widening</em> of it within the same family:
 *
 * <ul>
 *   <li>integers to a wider integer ({@code TINYINT < SMALLINT < INT < BIGINT}) or to a {@code
 *       DECIMAL} with at least as many integer digits;
 *   <li>{@code DECIMAL(p, s)} to {@code DECIMAL(p', s')} with {@code s' >= s} and {@code p' - s' >=
 *       p - s};
 *   <li>{@code FLOAT} to {@code DOUBLE};
 *   <li>character strings to a {@code VARCHAR} at least as long ({@code STRING} included);
 *   <li>byte strings to a {@code VARBINARY} at least as long ({@code BYTES} included);
 *   <li>{@code TIME}, {@code TIMESTAMP} and {@code TIMESTAMP_LTZ} to the same kind with at least
 *       the same fractional precision.
 * </ul>
 *
 * Besides, some declarations that are not widenings keep MySQL's meaning, as mysql-cdc maps them
 * ({@link #isMySqlMeaning}): {@code TINYINT} as {@code BOOLEAN}, {@code TIME} as {@code TIME},
 * {@code TIMESTAMP} as {@code TIMESTAMP}, {@code SET} as {@code ARRAY<STRING>}, {@code FLOAT} and
 * {@code DOUBLE} as {@code DECIMAL}, spatial types as {@code STRING}. Nothing else converts across
 * families (no number or date declared as {@code STRING}): declare the mapped type and {@code CAST}
 * in the query, so text formats are Flink's, not invented here. Narrower integers, {@code VARCHAR}s
 * and {@code VARBINARY}s are accepted and checked per value ({@link CheckedNarrowing}). A declared
 * {@code NOT NULL} needs a MySQL {@code NOT NULL} column. Pure logic, no I/O.
 */
@Internal
public final class DeclaredTypeRule {

    /**
     * The finest MySQL {@code TIME} precision a Flink {@code TIME} holds: Flink keeps a time of day
     * as milliseconds.
     */
    public static final int MAX_TIME_AS_TIME_PRECISION = 3;

    private DeclaredTypeRule() {}

    /**
     * Why {@code declared} cannot hold the values of a column mapped to {@code mapped}, or empty
     * when it can. Nullability is not considered here (see {@link #nullabilityProblem}).
     */
    public static Optional<String> incompatibility(LogicalType mapped, LogicalType declared) {
        return incompatibility(null, mapped, declared);
    }

    /**
     * As {@link #incompatibility(LogicalType, LogicalType)}, also accepting the declarations that
     * keep MySQL's meaning of {@code column}.
     *
     * @param column the MySQL column, or null when only its mapped type is known
     */
    public static Optional<String> incompatibility(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        if (isLosslessWidening(mapped, declared)
                || isMySqlMeaning(column, declared)
                || CheckedNarrowing.accepts(column, mapped, declared)) {
            return Optional.empty();
        }
        return Optional.of(hint(column, mapped, declared));
    }

    /**
     * Whether {@code declared} reads {@code column} with MySQL's own meaning though it is no
     * widening of the mapped type, as mysql-cdc maps them:
     *
     * <ul>
     *   <li>a {@code TINYINT} (signed or not) as {@code BOOLEAN}: 0 false and any other value true,
     *       as MySQL tests truth (the display width is not checked: the binlog does not carry it,
     *       and MySQL's truth is the same for every width);
     *   <li>a {@code TIME(q)}, {@code q <= 3}, as {@code TIME(p)}, {@code p >= q}: a value outside
     *       00:00:00 to 23:59:59.999 halts (MySQL's TIME spans -838:59:59 to 838:59:59; it is never
     *       wrapped into a day);
     *   <li>a {@code TIMESTAMP(q)} as {@code TIMESTAMP(p)}, {@code p >= q}: the wall clock in the
     *       table's zone ({@link DeclaredValueSettings#wallClockZone});
     *   <li>a {@code SET} as {@code ARRAY<STRING>} (or {@code ARRAY<VARCHAR(n)>} holding the
     *       longest label): its members in definition order; not when {@code ''} is a member, which
     *       the comma-joined value cannot tell from the empty set;
     *   <li>a {@code FLOAT} or {@code DOUBLE} as {@code DECIMAL(p, s)}: rounded half-up to {@code
     *       s}; a value with more than {@code p - s} integer digits, NaN or infinite halts;
     *   <li>a spatial column as {@code STRING}: mysql-cdc's JSON text of the geometry ({@link
     *       MySqlCdcGeometryText}).
     * </ul>
     */
    public static boolean isMySqlMeaning(@Nullable ColumnSchema column, LogicalType declared) {
        if (column == null) {
            return false;
        }
        LogicalTypeRoot to = declared.getTypeRoot();
        if (column.type().isSpatial()) {
            // The text has no length bound: only STRING holds every value.
            return to == LogicalTypeRoot.VARCHAR
                    && LogicalTypeChecks.getLength(declared) == VarCharType.MAX_LENGTH;
        }
        switch (column.type()) {
            case TINYINT:
                return to == LogicalTypeRoot.BOOLEAN;
            case TIME:
                return to == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE
                        && column.precision() <= MAX_TIME_AS_TIME_PRECISION
                        && LogicalTypeChecks.getPrecision(declared) >= column.precision();
            case TIMESTAMP:
                return to == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        && LogicalTypeChecks.getPrecision(declared) >= column.precision();
            case SET:
                return to == LogicalTypeRoot.ARRAY && holdsSetMembers(column, (ArrayType) declared);
            case FLOAT:
            case DOUBLE:
                return to == LogicalTypeRoot.DECIMAL;
            default:
                return false;
        }
    }

    private static boolean holdsSetMembers(ColumnSchema column, ArrayType declared) {
        LogicalType element = declared.getElementType();
        if (element.getTypeRoot() != LogicalTypeRoot.VARCHAR || column.setValues().contains("")) {
            return false;
        }
        int longest = column.setValues().stream().mapToInt(String::length).max().orElse(0);
        return LogicalTypeChecks.getLength(element) >= longest;
    }

    /** The declarations besides the mapped type and its widenings that {@code column} accepts. */
    static String mySqlMeaningAlternatives(@Nullable ColumnSchema column) {
        if (column == null) {
            return "";
        }
        if (column.type().isSpatial()) {
            return ", STRING (mysql-cdc's JSON text of the geometry)";
        }
        switch (column.type()) {
            case TINYINT:
                return ", BOOLEAN";
            case TIMESTAMP:
                return ", TIMESTAMP("
                        + column.precision()
                        + ") (the wall clock in 'server-time-zone' or the server's time_zone)";
            case SET:
                return column.setValues().contains("")
                        ? ""
                        : ", ARRAY<STRING> (the members in definition order)";
            case FLOAT:
            case DOUBLE:
                return ", DECIMAL(p, s) (rounded half-up to s; a value beyond p halts)";
            default:
                return "";
        }
    }

    /**
     * Whether a running job can keep producing {@code declared} from {@code column}: {@link
     * #isLosslessWideningIgnoringLength}, {@link #isMySqlMeaning} or a {@link CheckedNarrowing}.
     */
    public static boolean fitsAtRuntime(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        return isLosslessWideningIgnoringLength(mapped, declared)
                || isMySqlMeaning(column, declared)
                || CheckedNarrowing.accepts(column, mapped, declared);
    }

    /** Whether every value of {@code mapped} is representable, exactly, as {@code declared}. */
    public static boolean isLosslessWidening(LogicalType mapped, LogicalType declared) {
        LogicalType from = mapped.copy(true);
        LogicalType to = declared.copy(true);
        if (from.equals(to)) {
            return true;
        }
        LogicalTypeRoot f = from.getTypeRoot();
        LogicalTypeRoot t = to.getTypeRoot();
        if (integerRank(f) > 0) {
            if (integerRank(t) > 0) {
                return integerRank(t) >= integerRank(f);
            }
            if (t == LogicalTypeRoot.DECIMAL) {
                DecimalType d = (DecimalType) to;
                return d.getPrecision() - d.getScale() >= integerDigits(f);
            }
            return false;
        }
        switch (f) {
            case DECIMAL:
                if (t != LogicalTypeRoot.DECIMAL) {
                    return false;
                }
                DecimalType a = (DecimalType) from;
                DecimalType b = (DecimalType) to;
                return b.getScale() >= a.getScale()
                        && b.getPrecision() - b.getScale() >= a.getPrecision() - a.getScale();
            case FLOAT:
                return t == LogicalTypeRoot.DOUBLE;
            case CHAR:
            case VARCHAR:
                return t == LogicalTypeRoot.VARCHAR
                        && LogicalTypeChecks.getLength(to) >= LogicalTypeChecks.getLength(from);
            case BINARY:
            case VARBINARY:
                return t == LogicalTypeRoot.VARBINARY
                        && LogicalTypeChecks.getLength(to) >= LogicalTypeChecks.getLength(from);
            case TIME_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return t == f
                        && LogicalTypeChecks.getPrecision(to)
                                >= LogicalTypeChecks.getPrecision(from);
            default:
                return false;
        }
    }

    /**
     * As {@link #isLosslessWidening} but without comparing string and byte-string lengths: the
     * check made on the running job when a table's schema object changes (lengths were checked at
     * planning time; Flink does not enforce them at runtime).
     */
    public static boolean isLosslessWideningIgnoringLength(
            LogicalType mapped, LogicalType declared) {
        LogicalTypeRoot f = mapped.getTypeRoot();
        LogicalTypeRoot t = declared.getTypeRoot();
        if (isCharacter(f) && isCharacter(t)) {
            return true;
        }
        if (isByteString(f) && isByteString(t)) {
            return true;
        }
        return isLosslessWidening(mapped, declared);
    }

    private static boolean isCharacter(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR;
    }

    private static boolean isByteString(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.BINARY || root == LogicalTypeRoot.VARBINARY;
    }

    /** Why a declared NOT NULL cannot be honoured, or empty. */
    public static Optional<String> nullabilityProblem(boolean mysqlNullable, LogicalType declared) {
        if (mysqlNullable && !declared.isNullable()) {
            return Optional.of(
                    "the MySQL column allows NULL but the declared type is NOT NULL; remove NOT NULL");
        }
        return Optional.empty();
    }

    private static String hint(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        LogicalTypeRoot f = mapped.getTypeRoot();
        LogicalTypeRoot t = declared.getTypeRoot();
        if (column != null && column.type() == MySqlType.TIME) {
            return timeHint(column.precision(), declared);
        }
        if (f == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                && t == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
            int precision = LogicalTypeChecks.getPrecision(mapped);
            return (LogicalTypeChecks.getPrecision(declared) < precision
                            ? "the declared precision is below the MySQL column's; declare "
                            : "a MySQL TIMESTAMP is an instant; declare ")
                    + mapped.copy(true).asSummaryString()
                    + " (the instant), or TIMESTAMP("
                    + precision
                    + ") (the wall clock in 'server-time-zone' or the server's time_zone)";
        }
        if (column != null && column.type().isSpatial() && t != LogicalTypeRoot.VARBINARY) {
            return "spatial values are read as standard WKB bytes (SRID dropped); declare BYTES,"
                    + " or STRING (mysql-cdc's JSON text of the geometry)";
        }
        if (f == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                && t == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            return "a MySQL DATETIME has no time zone and is read as TIMESTAMP; declare "
                    + mapped.copy(true).asSummaryString();
        }
        if (t == LogicalTypeRoot.VARCHAR || t == LogicalTypeRoot.CHAR) {
            if (f == LogicalTypeRoot.VARCHAR || f == LogicalTypeRoot.CHAR) {
                return "the declared length is shorter than the MySQL column's; declare "
                        + mapped.copy(true).asSummaryString()
                        + " or STRING";
            }
            return "values are not converted to text by the connector; declare "
                    + mapped.copy(true).asSummaryString()
                    + " and CAST in the query";
        }
        return "it cannot hold every value of the column; declare "
                + mapped.copy(true).asSummaryString()
                + mySqlMeaningAlternatives(column)
                + " or a lossless widening of it (see docs/sql.md)";
    }

    private static String timeHint(int precision, LogicalType declared) {
        String micros = "BIGINT (signed microseconds, every MySQL TIME value)";
        if (precision > MAX_TIME_AS_TIME_PRECISION) {
            return "Flink's TIME holds milliseconds and a MySQL TIME("
                    + precision
                    + ") value may have finer digits; declare "
                    + micros;
        }
        String time = "TIME(" + precision + ")";
        if (declared.getTypeRoot() == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE) {
            // Flink 1.20's planner turns a declared TIME(p) into TIME(0): there only BIGINT fits.
            return "the declared precision is below the MySQL column's; declare "
                    + time
                    + " (on Flink 1.20, whose planner keeps no fraction in TIME, declare "
                    + micros
                    + ")";
        }
        return "declare "
                + micros
                + ", or "
                + time
                + " (a value outside 00:00:00 to 23:59:59.999 halts)";
    }

    /** 1..4 for TINYINT..BIGINT, 0 for anything else. */
    static int integerRank(LogicalTypeRoot root) {
        switch (root) {
            case TINYINT:
                return 1;
            case SMALLINT:
                return 2;
            case INTEGER:
                return 3;
            case BIGINT:
                return 4;
            default:
                return 0;
        }
    }

    /** Decimal digits needed for any value of an integer type. */
    static int integerDigits(LogicalTypeRoot root) {
        switch (root) {
            case TINYINT:
                return 3;
            case SMALLINT:
                return 5;
            case INTEGER:
                return 10;
            case BIGINT:
                return 19;
            default:
                throw new IllegalArgumentException("not an integer type: " + root);
        }
    }
}
