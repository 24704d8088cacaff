package io.capstan.flink.mysql.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

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
 * Nothing converts across families (no number or date declared as {@code STRING}): declare the
 * mapped type and {@code CAST} in the query, so text formats are Flink's, not invented here. A
 * declared {@code NOT NULL} needs a MySQL {@code NOT NULL} column. Pure logic, no I/O.
 */
@Internal
public final class DeclaredTypeRule {

    private DeclaredTypeRule() {}

    /**
     * Why {@code declared} cannot hold the values of a column mapped to {@code mapped}, or empty
     * when it can. Nullability is not considered here (see {@link #nullabilityProblem}).
     */
    public static Optional<String> incompatibility(LogicalType mapped, LogicalType declared) {
        if (isLosslessWidening(mapped, declared)) {
            return Optional.empty();
        }
        return Optional.of(hint(mapped, declared));
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

    private static String hint(LogicalType mapped, LogicalType declared) {
        LogicalTypeRoot f = mapped.getTypeRoot();
        LogicalTypeRoot t = declared.getTypeRoot();
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
                + " or a lossless widening of it (see docs/sql.md)";
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
