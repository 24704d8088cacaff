package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
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
 * Besides, two declarations that are not widenings keep MySQL's meaning, as mysql-cdc maps them
 * ({@link #isMySqlMeaning}): a {@code TINYINT} column (MySQL's {@code BOOL}, {@code TINYINT(1)}) as
 * {@code BOOLEAN}, and a {@code TIME(q)} column as {@code TIME(p)}. Nothing else converts across
 * families (no number or date declared as {@code STRING}): declare the mapped type and {@code CAST}
 * in the query, so text formats are Flink's, not invented here. A declared {@code NOT NULL} needs a
 * MySQL {@code NOT NULL} column. Pure logic, no I/O.
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
        if (isLosslessWidening(mapped, declared) || isMySqlMeaning(column, declared)) {
            return Optional.empty();
        }
        return Optional.of(hint(column, mapped, declared));
    }

    /**
     * Whether {@code declared} reads {@code column} with MySQL's own meaning though it is no
     * widening of the mapped type: a {@code TINYINT} (signed or not) as {@code BOOLEAN}, 0 false
     * and any other value true, as MySQL tests truth; a {@code TIME(q)}, {@code q <= 3}, as {@code
     * TIME(p)}, {@code p >= q}, where a value outside 00:00:00 to 23:59:59.999 halts (MySQL's TIME
     * spans -838:59:59 to 838:59:59; it is never wrapped into a day). The TINYINT display width is
     * not checked: the binlog does not carry it, and MySQL's truth is the same for every width.
     */
    public static boolean isMySqlMeaning(@Nullable ColumnSchema column, LogicalType declared) {
        if (column == null) {
            return false;
        }
        LogicalTypeRoot to = declared.getTypeRoot();
        switch (column.type()) {
            case TINYINT:
                return to == LogicalTypeRoot.BOOLEAN;
            case TIME:
                return to == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE
                        && column.precision() <= MAX_TIME_AS_TIME_PRECISION
                        && LogicalTypeChecks.getPrecision(declared) >= column.precision();
            default:
                return false;
        }
    }

    /**
     * Whether a running job can keep producing {@code declared} from {@code column}: {@link
     * #isLosslessWideningIgnoringLength} or {@link #isMySqlMeaning}.
     */
    public static boolean fitsAtRuntime(
            @Nullable ColumnSchema column, LogicalType mapped, LogicalType declared) {
        return isLosslessWideningIgnoringLength(mapped, declared)
                || isMySqlMeaning(column, declared);
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
            return "a MySQL TIMESTAMP is an instant and is read as TIMESTAMP_LTZ; declare "
                    + mapped.copy(true).asSummaryString()
                    + " (server-time-zone is not needed)";
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
                + (column != null && column.type() == MySqlType.TINYINT ? ", BOOLEAN" : "")
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
            return "the declared precision is below the MySQL column's; declare " + time;
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
