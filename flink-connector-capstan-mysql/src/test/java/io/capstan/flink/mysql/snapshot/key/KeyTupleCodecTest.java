package io.capstan.flink.mysql.snapshot.key;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag(FlinkLines.NEUTRAL) // jqwik's tag for its properties, JUnit's for the examples
@org.junit.jupiter.api.Tag(FlinkLines.NEUTRAL)
class KeyTupleCodecTest {

    @Provide
    Arbitrary<Object> values() {
        return Arbitraries.oneOf(
                Arbitraries.longs().map(v -> (Object) v),
                Arbitraries.integers().map(v -> (Object) v),
                Arbitraries.shorts().map(v -> (Object) v),
                Arbitraries.bytes().map(v -> (Object) v),
                Arbitraries.of(true, false).map(v -> (Object) v),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(v -> (Object) v),
                Arbitraries.strings().ofMaxLength(20).map(v -> (Object) StringData.fromString(v)),
                Arbitraries.strings()
                        .ofMaxLength(20)
                        .map(
                                v ->
                                        (Object)
                                                new CollatedString(
                                                        StringData.fromString(v),
                                                        v.toUpperCase().getBytes())),
                Arbitraries.bigIntegers()
                        .between(
                                new java.math.BigInteger("-99999999999999999999999999999999999999"),
                                new java.math.BigInteger("99999999999999999999999999999999999999"))
                        .map(v -> (Object) DecimalData.fromBigDecimal(new BigDecimal(v, 6), 38, 6)),
                Arbitraries.longs()
                        .between(-62135596800000L, 253402300799999L)
                        .flatMap(
                                ms ->
                                        Arbitraries.integers()
                                                .between(0, 999_999)
                                                .map(
                                                        n ->
                                                                (Object)
                                                                        TimestampData
                                                                                .fromEpochMillis(
                                                                                        ms, n))));
    }

    @Provide
    Arbitrary<KeyTuple> tuples() {
        return values().list().ofMinSize(1).ofMaxSize(5).map(l -> KeyTuple.of(l.toArray()));
    }

    @Property(tries = 1000)
    void roundTrips(@ForAll("tuples") KeyTuple key) throws IOException {
        KeyTuple back = KeyTupleCodec.fromBytes(KeyTupleCodec.toBytes(key));
        assertThat(back).isEqualTo(key);
        for (int i = 0; i < key.arity(); i++) {
            assertThat(back.get(i)).hasSameClassAs(key.get(i));
        }
    }

    @Property(tries = 200)
    void nullableRoundTrips(@ForAll("tuples") KeyTuple key) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        KeyTupleCodec.writeNullable(null, out);
        KeyTupleCodec.writeNullable(key, out);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        assertThat(KeyTupleCodec.readNullable(in)).isNull();
        assertThat(KeyTupleCodec.readNullable(in)).isEqualTo(key);
    }

    @Test
    void theFormatIsStable() throws IOException {
        // v1 bytes of (Long 1, Integer 2): version, arity, tag+payload each. Changing this breaks
        // restoring old checkpoints: bump VERSION and keep a reader for v1 instead.
        byte[] v1 = {1, 2, 4, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 2};
        assertThat(KeyTupleCodec.toBytes(KeyTuple.of(1L, 2))).containsExactly(v1);
        assertThat(KeyTupleCodec.fromBytes(v1)).isEqualTo(KeyTuple.of(1L, 2));
    }

    @Test
    void rejectsUnknownVersionsAndTags() {
        assertThatThrownBy(
                        () -> KeyTupleCodec.fromBytes(new byte[] {2, 1, 4, 0, 0, 0, 0, 0, 0, 0, 1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> KeyTupleCodec.fromBytes(new byte[] {1, 1, 99}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("tag");
        assertThatThrownBy(() -> KeyTupleCodec.fromBytes(new byte[] {1, 1}))
                .isInstanceOf(IOException.class);
    }

    @Test
    void chunkKeysRoundTrip() throws IOException {
        ChunkKey key =
                new ChunkKey(
                        TestKeys.TABLE,
                        List.of(
                                new KeyColumn("a", 3, KeyKind.DECIMAL, true, 20, 4, "decimal"),
                                new KeyColumn("b", 0, KeyKind.BINARY, false, 16, 0, "binary"),
                                new KeyColumn(
                                        "c",
                                        1,
                                        KeyKind.STRING_COLLATED,
                                        false,
                                        144,
                                        0,
                                        "char",
                                        new KeyCollation(
                                                "latin1_swedish_ci",
                                                "latin1",
                                                true,
                                                new byte[] {0x20}))),
                        ChunkKey.Source.CHUNK_KEY_COLUMN);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ChunkKeySerializer.write(key, new DataOutputStream(bytes));
        assertThat(
                        ChunkKeySerializer.read(
                                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))))
                .isEqualTo(key);
    }

    @Test
    void chunkKeysOfVersionOneStillRead() throws IOException {
        // A v1 chunk key (before collations): db.t, PRIMARY_KEY, one INTEGER column "id" @0.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        out.writeUTF(TestKeys.TABLE.database());
        out.writeUTF(TestKeys.TABLE.table());
        out.writeByte(ChunkKey.Source.PRIMARY_KEY.ordinal());
        out.writeByte(1); // arity
        out.writeUTF("id");
        out.writeByte(0); // row index
        out.writeByte(KeyKind.INTEGER.ordinal());
        out.writeBoolean(false);
        out.writeByte(0);
        out.writeByte(0);
        out.writeUTF("bigint");
        assertThat(
                        ChunkKeySerializer.read(
                                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))))
                .isEqualTo(
                        new ChunkKey(
                                TestKeys.TABLE,
                                List.of(
                                        new KeyColumn(
                                                "id", 0, KeyKind.INTEGER, false, 0, 0, "bigint")),
                                ChunkKey.Source.PRIMARY_KEY));
    }
}
