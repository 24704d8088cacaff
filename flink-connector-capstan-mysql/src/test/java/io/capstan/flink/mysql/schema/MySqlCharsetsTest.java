package io.capstan.flink.mysql.schema;

import org.junit.jupiter.api.Test;

import java.nio.charset.Charset;

import static org.assertj.core.api.Assertions.assertThat;

/** MySQL character sets to the Java charsets Connector/J decodes them with. */
class MySqlCharsetsTest {

    @Test
    void theMacCharacterSetsDecodeAsConnectorJDoes() {
        Charset roman = MySqlCharsets.javaCharset("macroman");
        Charset ce = MySqlCharsets.javaCharset("macce");
        assertThat(roman).isNotNull();
        assertThat(ce).isNotNull();
        assertThat(roman.name()).isEqualTo("x-MacRoman");
        assertThat(ce.name()).isEqualTo("x-MacCentralEurope");
        byte[] bytes = {(byte) 0x8E, (byte) 0x80, (byte) 0xE4, 'a'};
        assertThat(new String(bytes, roman)).isEqualTo("éÄ‰a");
        assertThat(new String(bytes, ce)).isEqualTo("éÄša");
        assertThat(MySqlCharsets.maxBytesPerChar("macroman")).isEqualTo(1);
        assertThat(MySqlCharsets.isAsciiCompatible("macce")).isTrue();
    }

    @Test
    void aCharacterSetWithoutJavaDecoderHasNone() {
        assertThat(MySqlCharsets.javaCharset("keybcs2")).isNull();
        assertThat(MySqlCharsets.javaCharset("utf8mb3")).isEqualTo(Charset.forName("UTF-8"));
    }
}
