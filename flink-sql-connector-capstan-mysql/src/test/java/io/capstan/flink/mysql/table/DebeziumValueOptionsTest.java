package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DebeziumValueOptionsTest {

    private static final TableId T = TableId.of("shop", "files");

    private static MySqlTableShape.Column column(String name, MySqlType type) {
        ColumnSchema c = ColumnSchema.builder(name, type).length(16).build(T);
        return new MySqlTableShape.Column(name, type.name(), c.logicalType(), c);
    }

    private static final MySqlTableShape FILES =
            new MySqlTableShape(
                    T,
                    List.of(
                            column("id", MySqlType.INT),
                            column("body", MySqlType.BLOB),
                            column("born", MySqlType.DATE)),
                    List.of());

    private static ResolvedSchema declared(Column... columns) {
        return new ResolvedSchema(List.of(columns), Collections.emptyList(), null);
    }

    @Test
    void binaryModesEncodeAsDebeziumDoes() {
        byte[] bytes = {1, 2, (byte) 0xff};
        assertThat(BinaryTextEncoding.BASE64.encoder().widen(bytes))
                .isEqualTo(StringData.fromString("AQL/"))
                .isEqualTo(StringData.fromString(Base64.getEncoder().encodeToString(bytes)));
        assertThat(BinaryTextEncoding.HEX.encoder().widen(bytes))
                .isEqualTo(StringData.fromString("0102ff"));
        assertThat(BinaryTextEncoding.BASE64.encoder().widen(new byte[0]))
                .isEqualTo(StringData.fromString(""));
        assertThat(DebeziumValueOptions.binaryEncoding(Map.of()))
                .isEqualTo(BinaryTextEncoding.BYTES);
        assertThat(
                        DebeziumValueOptions.binaryEncoding(
                                Map.of(DebeziumValueOptions.BINARY_HANDLING_MODE, " HEX ")))
                .isEqualTo(BinaryTextEncoding.HEX);
        assertThatThrownBy(
                        () ->
                                DebeziumValueOptions.binaryEncoding(
                                        Map.of(
                                                DebeziumValueOptions.BINARY_HANDLING_MODE,
                                                "base85")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'bytes' (the default), 'base64' or 'hex'");
    }

    @Test
    void aBinaryColumnAsTextIsDeclaredStringAndOnlyWithAMode() {
        ResolvedSchema asString = declared(Column.physical("body", DataTypes.STRING()));
        Map<String, String> base64 = Map.of(DebeziumValueOptions.BINARY_HANDLING_MODE, "base64");
        assertThatCode(
                        () ->
                                DeclaredSchemaCheck.check(
                                        asString,
                                        List.of(FILES),
                                        java.util.Optional.empty(),
                                        BinaryTextEncoding.BASE64))
                .doesNotThrowAnyException();
        assertThatThrownBy(
                        () ->
                                DeclaredSchemaCheck.check(
                                        asString, List.of(FILES), java.util.Optional.empty()))
                .isInstanceOf(ValidationException.class);
        assertThatCode(() -> DebeziumValueOptions.check(base64, asString, List.of(FILES)))
                .doesNotThrowAnyException();
        assertThatThrownBy(
                        () ->
                                DebeziumValueOptions.check(
                                        base64,
                                        declared(Column.physical("body", DataTypes.BYTES())),
                                        List.of(FILES)))
                .hasMessageContaining("'body' are not declared STRING");
    }

    @Test
    void theTimeAdjusterIsAcceptedWhereNoValueCanChange() {
        Map<String, String> on = Map.of(DebeziumValueOptions.ENABLE_TIME_ADJUSTER, "true");
        Map<String, String> off = Map.of(DebeziumValueOptions.ENABLE_TIME_ADJUSTER, "false");
        ResolvedSchema noDate = declared(Column.physical("id", DataTypes.INT()));
        ResolvedSchema withDate =
                declared(
                        Column.physical("id", DataTypes.INT()),
                        Column.physical("born", DataTypes.DATE()));
        assertThatCode(() -> DebeziumValueOptions.check(on, noDate, List.of(FILES)))
                .doesNotThrowAnyException();
        assertThatCode(() -> DebeziumValueOptions.check(off, withDate, List.of(FILES)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> DebeziumValueOptions.check(on, withDate, List.of(FILES)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'born'")
                .hasMessageContaining("set the option to 'false' or remove it");
    }
}
