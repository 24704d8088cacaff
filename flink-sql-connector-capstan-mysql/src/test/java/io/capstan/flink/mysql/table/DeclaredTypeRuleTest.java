package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeclaredTypeRuleTest {

    private static LogicalType t(DataType d) {
        return d.getLogicalType();
    }

    private static boolean ok(DataType mapped, DataType declared) {
        return DeclaredTypeRule.isLosslessWidening(t(mapped), t(declared));
    }

    @Test
    void sameTypeIsAccepted() {
        assertThat(ok(DataTypes.DECIMAL(12, 2), DataTypes.DECIMAL(12, 2))).isTrue();
        assertThat(ok(DataTypes.DATE(), DataTypes.DATE())).isTrue();
        assertThat(ok(DataTypes.BOOLEAN(), DataTypes.BOOLEAN())).isTrue();
        // nullability is a separate check
        assertThat(ok(DataTypes.INT().notNull(), DataTypes.INT())).isTrue();
    }

    @Test
    void integersWidenToWiderIntegersAndBigEnoughDecimals() {
        assertThat(ok(DataTypes.TINYINT(), DataTypes.SMALLINT())).isTrue();
        assertThat(ok(DataTypes.INT(), DataTypes.BIGINT())).isTrue();
        assertThat(ok(DataTypes.BIGINT(), DataTypes.INT())).isFalse();
        assertThat(ok(DataTypes.INT(), DataTypes.DECIMAL(10, 0))).isTrue();
        assertThat(ok(DataTypes.INT(), DataTypes.DECIMAL(11, 2))).isFalse();
        assertThat(ok(DataTypes.BIGINT(), DataTypes.DECIMAL(19, 0))).isTrue();
        assertThat(ok(DataTypes.INT(), DataTypes.DOUBLE())).isFalse();
        assertThat(ok(DataTypes.INT(), DataTypes.STRING())).isFalse();
    }

    @Test
    void decimalsWidenWhenBothIntegerDigitsAndScaleFit() {
        assertThat(ok(DataTypes.DECIMAL(12, 2), DataTypes.DECIMAL(14, 4))).isTrue();
        assertThat(ok(DataTypes.DECIMAL(12, 2), DataTypes.DECIMAL(12, 3)))
                .isFalse(); // integer digits 10 -> 9
        assertThat(ok(DataTypes.DECIMAL(12, 2), DataTypes.DECIMAL(13, 1))).isFalse(); // scale drops
        assertThat(ok(DataTypes.DECIMAL(20, 0), DataTypes.BIGINT())).isFalse();
    }

    @Test
    void floatWidensToDoubleOnly() {
        assertThat(ok(DataTypes.FLOAT(), DataTypes.DOUBLE())).isTrue();
        assertThat(ok(DataTypes.DOUBLE(), DataTypes.FLOAT())).isFalse();
    }

    @Test
    void stringsAndBytesWidenByLength() {
        assertThat(ok(DataTypes.VARCHAR(16), DataTypes.STRING())).isTrue();
        assertThat(ok(DataTypes.VARCHAR(16), DataTypes.VARCHAR(16))).isTrue();
        assertThat(ok(DataTypes.VARCHAR(16), DataTypes.VARCHAR(8))).isFalse();
        assertThat(ok(DataTypes.CHAR(4), DataTypes.VARCHAR(4))).isTrue();
        assertThat(ok(DataTypes.CHAR(4), DataTypes.CHAR(4))).isTrue();
        assertThat(ok(DataTypes.CHAR(4), DataTypes.CHAR(8))).isFalse();
        assertThat(ok(DataTypes.STRING(), DataTypes.VARCHAR(255))).isFalse();
        assertThat(ok(DataTypes.BINARY(16), DataTypes.BYTES())).isTrue();
        assertThat(ok(DataTypes.BYTES(), DataTypes.STRING())).isFalse();
        // at runtime lengths are not re-checked
        assertThat(
                        DeclaredTypeRule.isLosslessWideningIgnoringLength(
                                t(DataTypes.STRING()), t(DataTypes.VARCHAR(255))))
                .isTrue();
        assertThat(
                        DeclaredTypeRule.isLosslessWideningIgnoringLength(
                                t(DataTypes.BYTES()), t(DataTypes.BINARY(16))))
                .isTrue();
        assertThat(
                        DeclaredTypeRule.isLosslessWideningIgnoringLength(
                                t(DataTypes.BYTES()), t(DataTypes.STRING())))
                .isFalse();
    }

    @Test
    void temporalTypesWidenPrecisionWithinTheirKind() {
        assertThat(ok(DataTypes.TIMESTAMP_LTZ(0), DataTypes.TIMESTAMP_LTZ(3))).isTrue();
        assertThat(ok(DataTypes.TIMESTAMP_LTZ(6), DataTypes.TIMESTAMP_LTZ(3))).isFalse();
        assertThat(ok(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6))).isTrue();
        assertThat(ok(DataTypes.TIMESTAMP_LTZ(3), DataTypes.TIMESTAMP(3))).isFalse();
        assertThat(ok(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP_LTZ(3))).isFalse();
        assertThat(ok(DataTypes.DATE(), DataTypes.TIMESTAMP(3))).isFalse();
    }

    @Test
    void refusalsExplainWhatWouldFit() {
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                t(DataTypes.TIMESTAMP_LTZ(3)), t(DataTypes.TIMESTAMP(3))))
                .get()
                .asString()
                .contains("declare TIMESTAMP_LTZ(3)")
                .contains("or TIMESTAMP(3) (the wall clock in 'server-time-zone'");
        assertThat(
                        DeclaredTypeRule.incompatibility(
                                t(DataTypes.DECIMAL(12, 2)), t(DataTypes.STRING())))
                .get()
                .asString()
                .contains("declare DECIMAL(12, 2) and CAST in the query");
        assertThat(DeclaredTypeRule.incompatibility(t(DataTypes.BIGINT()), t(DataTypes.DOUBLE())))
                .get()
                .asString()
                .contains("declare BIGINT");
        // narrower integers and strings: accepted, each value checked (CheckedNarrowingTest)
        assertThat(DeclaredTypeRule.incompatibility(t(DataTypes.BIGINT()), t(DataTypes.INT())))
                .isEmpty();
        assertThat(DeclaredTypeRule.nullabilityProblem(true, t(DataTypes.INT().notNull())))
                .isPresent();
        assertThat(DeclaredTypeRule.nullabilityProblem(false, t(DataTypes.INT()))).isEmpty();
    }

    @Test
    void wideningsConvertValuesExactly() {
        assertThat(
                        FieldWidening.between(t(DataTypes.TINYINT()), t(DataTypes.BIGINT()))
                                .widen((byte) -7))
                .isEqualTo(-7L);
        assertThat(
                        FieldWidening.between(t(DataTypes.SMALLINT()), t(DataTypes.INT()))
                                .widen((short) 300))
                .isEqualTo(300);
        assertThat(FieldWidening.between(t(DataTypes.FLOAT()), t(DataTypes.DOUBLE())).widen(1.5f))
                .isEqualTo(1.5d);
        assertThat(
                        FieldWidening.between(t(DataTypes.BIGINT()), t(DataTypes.DECIMAL(20, 0)))
                                .widen(Long.MIN_VALUE))
                .isEqualTo(DecimalData.fromBigDecimal(BigDecimal.valueOf(Long.MIN_VALUE), 20, 0));
        assertThat(
                        FieldWidening.between(
                                        t(DataTypes.DECIMAL(12, 2)), t(DataTypes.DECIMAL(14, 4)))
                                .widen(
                                        DecimalData.fromBigDecimal(
                                                new BigDecimal("-1234567890.12"), 12, 2)))
                .isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("-1234567890.1200"), 14, 4));
        StringData s = StringData.fromString("x");
        assertThat(FieldWidening.between(t(DataTypes.VARCHAR(3)), t(DataTypes.STRING())).widen(s))
                .isSameAs(s);
        assertThatThrownBy(
                        () -> FieldWidening.between(t(DataTypes.BIGINT()), t(DataTypes.DOUBLE())))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
