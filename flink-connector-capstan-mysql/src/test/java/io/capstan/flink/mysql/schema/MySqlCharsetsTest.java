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

    /**
     * The Unicode sets decode exactly (a U+FFFD is a stored U+FFFD, not a lost byte; a leading
     * U+FEFF is a character, not a byte-order mark); the others may lose bytes.
     */
    @Test
    void theUnicodeSetsDecodeLosslesslyAndUtf16KeepsALeadingFeff() {
        for (String c :
                new String[] {"utf8mb4", "utf8mb3", "utf16", "utf16le", "utf32", "gb18030"}) {
            assertThat(MySqlCharsets.decodesLosslessly(c)).as(c).isTrue();
        }
        for (String c : new String[] {"latin1", "cp1251", "sjis", "big5", "ucs2"}) {
            assertThat(MySqlCharsets.decodesLosslessly(c)).as(c).isFalse();
        }
        byte[] u16 = {(byte) 0xFE, (byte) 0xFF, 0, 0x41};
        assertThat(new String(u16, MySqlCharsets.javaCharset("utf16"))).isEqualTo("\uFEFFA");
        // utf32: Java's decoders drop a leading U+FEFF; TextConverters decodes it itself.
    }
}
