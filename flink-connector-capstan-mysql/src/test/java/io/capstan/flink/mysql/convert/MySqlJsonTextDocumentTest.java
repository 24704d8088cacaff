package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.convert.TestBinaryJson.Opaque;
import io.capstan.flink.mysql.convert.TestBinaryJson.UInt16;
import io.capstan.flink.mysql.convert.TestBinaryJson.UInt32;
import io.capstan.flink.mysql.testing.FlinkLines;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The direct walker prints every document exactly as the previous library-based printer did ({@link
 * MySqlJsonTextLibraryReference}), for random documents of every value type in small and large
 * containers, reusing one printer as a converter does.
 */
@Tag(FlinkLines.NEUTRAL) // jqwik's tag for its properties, JUnit's for the examples
@org.junit.jupiter.api.Tag(FlinkLines.NEUTRAL)
class MySqlJsonTextDocumentTest {

    private final MySqlJsonText printer = new MySqlJsonText();

    // 1,000 documents (3,000 took 12 s of CI): every value type and both container sizes still
    // come up many times in each run.
    @Property(tries = 1_000)
    void sameTextAsTheLibraryWalk(@ForAll("documents") Object doc, @ForAll long seed)
            throws IOException {
        byte[] binary = new TestBinaryJson(seed).document(doc);
        assertThat(printer.print(binary)).isEqualTo(MySqlJsonTextLibraryReference.print(binary));
    }

    @Test
    void inlinedUnsignedIntInLargeContainerIsPrinted() throws IOException {
        // The library drops this value (a Long it does not print); MySQL prints the number.
        for (long seed = 0; seed < 8; seed++) {
            byte[] binary = new TestBinaryJson(seed).document(List.of(new UInt32(4_000_000_000L)));
            assertThat(printer.print(binary)).isEqualTo("[4000000000]");
        }
    }

    @Test
    void truncatedDocumentsFailWithoutValues() throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("secret", "value-123");
        m.put("n", 3.25);
        byte[] binary = new TestBinaryJson(1).document(m);
        for (int len = 1; len < binary.length; len++) {
            byte[] cut = Arrays.copyOf(binary, len);
            try {
                String text = printer.print(cut);
                assertThat(text)
                        .isNotNull(); // some prefixes are still readable (offsets into the prefix)
            } catch (IOException e) {
                assertThat(e.getMessage()).doesNotContain("secret").doesNotContain("value-123");
            }
        }
        assertThatThrownBy(() -> printer.print(new byte[] {0x0e})).isInstanceOf(IOException.class);
        assertThat(printer.print(new byte[0])).isEqualTo("null");
    }

    @Provide
    Arbitrary<Object> documents() {
        Arbitrary<Object> level = scalar();
        for (int depth = 0; depth < 3; depth++) {
            Arbitrary<Object> inner = level;
            level =
                    Arbitraries.oneOf(
                            scalar(),
                            inner.list().ofMaxSize(5).map(l -> (Object) new ArrayList<>(l)),
                            Arbitraries.maps(keys(), inner)
                                    .ofMaxSize(5)
                                    .map(m -> (Object) new LinkedHashMap<>(m)));
        }
        return level;
    }

    private Arbitrary<String> keys() {
        return Arbitraries.strings()
                .withCharRange('a', 'z')
                .withChars('"', '\\', '\n', '\u0001', ' ', '_')
                .ofMaxLength(12);
    }

    private Arbitrary<Object> scalar() {
        return Arbitraries.oneOf(
                Arbitraries.just(null),
                Arbitraries.of(true, false),
                Arbitraries.shorts().map(v -> (Object) v),
                Arbitraries.integers().between(0, 65_535).map(v -> (Object) new UInt16(v)),
                Arbitraries.integers().map(v -> (Object) v),
                Arbitraries.longs().map(v -> (Object) v),
                Arbitraries.longs().map(v -> (Object) new BigInteger(Long.toUnsignedString(v))),
                Arbitraries.longs()
                        .map(v -> (Object) Double.longBitsToDouble(v))
                        .filter(v -> !((Double) v).isNaN() && !((Double) v).isInfinite()),
                Arbitraries.integers().between(-100_000, 100_000).map(v -> (Object) (v / 100.0)),
                Arbitraries.strings().all().ofMaxLength(40).map(v -> (Object) v),
                Arbitraries.strings()
                        .withCharRange('a', 'z')
                        .ofMinLength(100)
                        .ofMaxLength(300)
                        .map(v -> (Object) v),
                // DATE 10, DATETIME 12, TIMESTAMP 7, TIME 11, their V2 forms, and BLOB-like ones
                Arbitraries.of(10, 12, 7, 11, 17, 18, 19, 252, 253, 254, 16)
                        .flatMap(
                                type ->
                                        Arbitraries.longs()
                                                .map(
                                                        packed ->
                                                                (Object)
                                                                        new Opaque(
                                                                                type,
                                                                                packedOrBytes(
                                                                                        type,
                                                                                        packed)))));
    }

    private static byte[] packedOrBytes(int type, long packed) {
        if (type >= 250 || type == 16) {
            return Long.toString(packed).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        byte[] b = new byte[8];
        for (int k = 0; k < 8; k++) {
            b[k] = (byte) (packed >>> (8 * k));
        }
        return b;
    }
}
