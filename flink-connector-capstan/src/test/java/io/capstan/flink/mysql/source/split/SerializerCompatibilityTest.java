package io.capstan.flink.mysql.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstan.flink.mysql.source.enumerator.EnumState;
import io.capstan.flink.mysql.source.enumerator.EnumStateSerializer;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Splits and enumerator state round-trip, and the checked-in bytes of version 1 still deserialize
 * to the same objects (what an old checkpoint or savepoint holds).
 */
class SerializerCompatibilityTest {

    private final CapstanSplitSerializer splits = CapstanSplitSerializer.INSTANCE;
    private final EnumStateSerializer enums = EnumStateSerializer.INSTANCE;

    @Test
    void splitsRoundTrip() throws IOException {
        for (BinlogSplit split : SerializerFixtures.splits().values()) {
            CapstanSplit back = splits.deserialize(splits.getVersion(), splits.serialize(split));
            assertThat(back.kind()).isEqualTo(SplitKind.BINLOG);
            assertThat(back.asBinlogSplit()).isEqualTo(split);
            assertThat(back.asBinlogSplit().start()).isEqualTo(split.start());
        }
    }

    @Test
    void enumStatesRoundTrip() throws IOException {
        for (EnumState state : SerializerFixtures.enumStates().values()) {
            assertThat(enums.deserialize(enums.getVersion(), enums.serialize(state))).isEqualTo(state);
        }
    }

    @Test
    void version1BytesOfSplitsStillDeserialize() throws IOException {
        for (Map.Entry<String, BinlogSplit> e : SerializerFixtures.splits().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            CapstanSplit split = splits.deserialize(1, bytes);
            assertThat(split.asBinlogSplit()).as(e.getKey()).isEqualTo(e.getValue());
            // Version 1 is still what this build writes: identical bytes.
            assertThat(splits.serialize(e.getValue())).as(e.getKey()).isEqualTo(bytes);
        }
    }

    @Test
    void version1BytesOfEnumeratorStateStillDeserialize() throws IOException {
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStates().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(enums.deserialize(1, bytes)).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(enums.serialize(e.getValue())).as(e.getKey()).isEqualTo(bytes);
        }
    }

    @Test
    void unknownVersionsAndCorruptBytesAreRefused() throws IOException {
        byte[] bytes = splits.serialize(SerializerFixtures.BINLOG_INSIDE_TRANSACTION);
        assertThatThrownBy(() -> splits.deserialize(2, bytes)).hasMessageContaining("version 2");
        assertThatThrownBy(() -> splits.deserialize(1, Arrays.copyOf(bytes, bytes.length - 3)))
                .isInstanceOf(IOException.class);
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> splits.deserialize(1, trailing)).hasMessageContaining("trailing");
        byte[] badKind = bytes.clone();
        badKind[0] = 42;
        assertThatThrownBy(() -> splits.deserialize(1, badKind)).hasMessageContaining("kind");
        assertThatThrownBy(() -> enums.deserialize(7, new byte[2])).hasMessageContaining("version 7");
    }

    /**
     * Writes the version-1 files. Run once when a version is introduced, never again:
     * {@code mvn test -Dtest=SerializerCompatibilityTest -Dcapstan.writeSerializerBytes=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "capstan.writeSerializerBytes", matches = "true")
    void writeVersion1Bytes() throws IOException {
        assertThat(splits.getVersion()).isEqualTo(1);
        for (Map.Entry<String, BinlogSplit> e : SerializerFixtures.splits().entrySet()) {
            Files.write(SerializerFixtures.sourceFile(e.getKey()), splits.serialize(e.getValue()));
        }
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStates().entrySet()) {
            Files.write(SerializerFixtures.sourceFile(e.getKey()), enums.serialize(e.getValue()));
        }
    }
}
