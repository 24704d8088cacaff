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

class CheckedNarrowingTest {

    private static LogicalType t(DataType d) {
        return d.getLogicalType();
    }

    private static FieldWidening between(DataType mapped, DataType declared) {
        return FieldWidening.between(t(mapped), t(declared));
    }

    private static DecimalData unsignedBigint(String value) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), 20, 0);
    }

    @Test
    void acceptsNarrowerIntegersStringsAndBytesOnly() {
        assertThat(CheckedNarrowing.accepts(null, t(DataTypes.DECIMAL(20, 0)), t(DataTypes.INT())))
                .isTrue();
        assertThat(CheckedNarrowing.accepts(null, t(DataTypes.BIGINT()), t(DataTypes.INT())))
                .isTrue();
        assertThat(CheckedNarrowing.accepts(null, t(DataTypes.INT()), t(DataTypes.BIGINT())))
                .as("a widening needs no check")
                .isFalse();
        assertThat(
                        CheckedNarrowing.accepts(
                                null, t(DataTypes.DECIMAL(12, 2)), t(DataTypes.BIGINT())))
                .as("a fraction is never cut")
                .isFalse();
        assertThat(
                        CheckedNarrowing.accepts(
                                null, t(DataTypes.VARCHAR(255)), t(DataTypes.VARCHAR(50))))
                .isTrue();
        assertThat(CheckedNarrowing.accepts(null, t(DataTypes.STRING()), t(DataTypes.VARCHAR(50))))
                .isTrue();
        assertThat(
                        CheckedNarrowing.accepts(
                                null, t(DataTypes.VARCHAR(50)), t(DataTypes.VARCHAR(50))))
                .isFalse();
        assertThat(CheckedNarrowing.accepts(null, t(DataTypes.BYTES()), t(DataTypes.VARBINARY(4))))
                .isTrue();
        assertThat(CheckedNarrowing.accepts(null, t(DataTypes.STRING()), t(DataTypes.CHAR(4))))
                .isFalse();
    }

    @Test
    void integersWithinTheDeclaredRangeAreDeliveredUnchanged() {
        FieldWidening f = between(DataTypes.DECIMAL(20, 0), DataTypes.INT());
        assertThat(f.widen(unsignedBigint("2147483647"))).isEqualTo(Integer.MAX_VALUE);
        assertThat(f.widen(unsignedBigint("0"))).isEqualTo(0);
        assertThat(
                        between(DataTypes.DECIMAL(20, 0), DataTypes.BIGINT())
                                .widen(unsignedBigint("9223372036854775807")))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(between(DataTypes.BIGINT(), DataTypes.INT()).widen(-2147483648L))
                .isEqualTo(Integer.MIN_VALUE);
        assertThat(between(DataTypes.INT(), DataTypes.SMALLINT()).widen(-32768))
                .isEqualTo((short) -32768);
        assertThat(between(DataTypes.SMALLINT(), DataTypes.TINYINT()).widen((short) 127))
                .isEqualTo((byte) 127);
    }

    @Test
    void integersOutsideTheDeclaredRangeDoNotFitAndAreNeverWrapped() {
        assertThatThrownBy(
                        () ->
                                between(DataTypes.DECIMAL(20, 0), DataTypes.INT())
                                        .widen(unsignedBigint("2147483648")))
                .isInstanceOfSatisfying(
                        FieldWidening.DoesNotFit.class,
                        e -> {
                            assertThat(e.limit()).isEqualTo("is outside the declared type's range");
                            assertThat(e.remedy()).contains("declare DECIMAL(20, 0)");
                            assertThat(e.getMessage()).doesNotContain("2147483648");
                        });
        assertThatThrownBy(
                        () ->
                                between(DataTypes.DECIMAL(20, 0), DataTypes.BIGINT())
                                        .widen(unsignedBigint("18446744073709551615")))
                .isInstanceOf(FieldWidening.DoesNotFit.class);
        assertThatThrownBy(() -> between(DataTypes.BIGINT(), DataTypes.INT()).widen(-2147483649L))
                .isInstanceOf(FieldWidening.DoesNotFit.class);
        assertThatThrownBy(() -> between(DataTypes.INT(), DataTypes.TINYINT()).widen(128))
                .isInstanceOf(FieldWidening.DoesNotFit.class);
    }

    @Test
    void stringsAreCountedInCharactersAsMySqlAndFlinkCountThem() {
        FieldWidening f = between(DataTypes.VARCHAR(255), DataTypes.VARCHAR(3));
        StringData three = StringData.fromString("测试𝄞"); // 3 characters, 10 UTF-8 bytes
        assertThat(f.widen(three)).isSameAs(three);
        assertThat(f.widen(StringData.fromString(""))).isEqualTo(StringData.fromString(""));
        assertThatThrownBy(() -> f.widen(StringData.fromString("abcd")))
                .isInstanceOfSatisfying(
                        FieldWidening.DoesNotFit.class,
                        e ->
                                assertThat(e.limit())
                                        .isEqualTo("has more than the declared 3 characters"));
        assertThatThrownBy(() -> f.widen(StringData.fromString("测试数据")))
                .isInstanceOf(FieldWidening.DoesNotFit.class);
    }

    @Test
    void bytesAreCountedInBytes() {
        FieldWidening f = between(DataTypes.BYTES(), DataTypes.VARBINARY(2));
        assertThat(f.widen(new byte[] {1, 2})).isEqualTo(new byte[] {1, 2});
        assertThatThrownBy(() -> f.widen(new byte[] {1, 2, 3}))
                .isInstanceOf(FieldWidening.DoesNotFit.class);
    }
}
