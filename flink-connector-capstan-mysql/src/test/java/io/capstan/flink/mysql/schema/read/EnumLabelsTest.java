package io.capstan.flink.mysql.schema.read;

import io.capstan.flink.mysql.schema.MySqlType;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EnumLabelsTest {

    @Test
    void parsesQuotedLabels() {
        assertThat(EnumLabels.parse("enum('small','it''s','a,b','ünï')"))
                .containsExactly("small", "it's", "a,b", "ünï");
        assertThat(EnumLabels.parse("set('')")).containsExactly("");
        assertThat(EnumLabels.parse("enum('a\\\\b')")).containsExactly("a\\b");
    }

    @Test
    void mysqlTypeNames() {
        assertThat(MySqlType.fromDataType("geomcollection"))
                .isEqualTo(MySqlType.GEOMETRYCOLLECTION);
        assertThat(MySqlType.fromDataType("int")).isEqualTo(MySqlType.INT);
        assertThat(MySqlType.fromDataType("vector")).isNull();
    }

    @Test
    void yearSignednessBitByServerVersion() {
        assertThat(BinlogSchemaReader.yearHasSignednessBit("8.0.15")).isFalse();
        assertThat(BinlogSchemaReader.yearHasSignednessBit("8.0.36")).isTrue();
        assertThat(BinlogSchemaReader.yearHasSignednessBit("8.4.3-log")).isTrue();
        assertThat(BinlogSchemaReader.yearHasSignednessBit("5.7.44")).isFalse();
        // MariaDB: the binlog's own version, and the handshake's with its "5.5.5-" prefix
        assertThat(BinlogSchemaReader.yearHasSignednessBit("10.11.19-MariaDB-0+deb12u1-log"))
                .isTrue();
        assertThat(BinlogSchemaReader.yearHasSignednessBit("5.5.5-10.11.19-MariaDB-0+deb12u1"))
                .isTrue();
    }
}
