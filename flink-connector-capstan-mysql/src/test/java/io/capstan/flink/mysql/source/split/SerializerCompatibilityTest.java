package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.source.enumerator.EnumState;
import io.capstan.flink.mysql.source.enumerator.EnumStateSerializer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
            assertThat(enums.deserialize(enums.getVersion(), enums.serialize(state)))
                    .isEqualTo(state);
        }
    }

    @Test
    void version1BytesOfSplitsStillDeserialize() throws IOException {
        for (Map.Entry<String, BinlogSplit> e : SerializerFixtures.splits().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            CapstanSplit split = splits.deserialize(1, bytes);
            assertThat(split.asBinlogSplit()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(split.asBinlogSplit().gate().chunkCount()).isZero();
        }
    }

    @Test
    void version2BytesStillDeserialize() throws IOException {
        for (Map.Entry<String, CapstanSplit> e : SerializerFixtures.splitsV2().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(splits.deserialize(2, bytes)).as(e.getKey()).isEqualTo(e.getValue());
        }
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStatesV2().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(enums.deserialize(2, bytes)).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void version3BytesStillDeserialize() throws IOException {
        for (Map.Entry<String, CapstanSplit> e : SerializerFixtures.splitsV3().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            CapstanSplit split = splits.deserialize(3, bytes);
            assertThat(split).as(e.getKey()).isEqualTo(e.getValue());
            if (split.kind() == SplitKind.BINLOG) {
                assertThat(split.asBinlogSplit().origin()).isEqualTo(StreamOrigin.UNKNOWN);
            }
        }
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStatesV3().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(enums.deserialize(3, bytes)).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void version4BytesOfEnumeratorStateStillDeserialize() throws IOException {
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStatesV4().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(enums.deserialize(4, bytes)).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    /** Splits keep their stream origin from version 4 (enumerator state version 5) on. */
    @Test
    void version4SplitsAndVersion5StateDeserializeAndAreWhatThisBuildWrites() throws IOException {
        for (Map.Entry<String, CapstanSplit> e : SerializerFixtures.splitsV4().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(splits.deserialize(4, bytes)).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(splits.serialize(e.getValue())).as(e.getKey()).isEqualTo(bytes);
        }
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStatesV5().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(enums.deserialize(5, bytes)).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(enums.serialize(e.getValue())).as(e.getKey()).isEqualTo(bytes);
        }
    }

    @Test
    void aBinlogSplitsOriginRoundTrips() throws IOException {
        for (CapstanSplit split : SerializerFixtures.splitsV4().values()) {
            CapstanSplit back = splits.deserialize(splits.getVersion(), splits.serialize(split));
            assertThat(back).isEqualTo(split);
            if (back.kind() == SplitKind.BINLOG) {
                assertThat(back.asBinlogSplit().origin()).isEqualTo(split.asBinlogSplit().origin());
            }
        }
    }

    @Test
    void chunkSplitsRoundTripWithAndWithoutCompletion() throws IOException {
        for (CapstanSplit split : SerializerFixtures.splitsV2().values()) {
            assertThat(splits.deserialize(splits.getVersion(), splits.serialize(split)))
                    .isEqualTo(split);
        }
        assertThat(SerializerFixtures.CHUNK_COMPLETED.toString()).doesNotContain("1000");
    }

    @Test
    void version1BytesOfEnumeratorStateStillDeserialize() throws IOException {
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStates().entrySet()) {
            byte[] bytes = SerializerFixtures.read(e.getKey());
            assertThat(enums.deserialize(1, bytes)).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void unknownVersionsAndCorruptBytesAreRefused() throws IOException {
        byte[] bytes = splits.serialize(SerializerFixtures.BINLOG_INSIDE_TRANSACTION);
        assertThatThrownBy(() -> splits.deserialize(5, bytes)).hasMessageContaining("version 5");
        byte[] chunk = splits.serialize(SerializerFixtures.CHUNK_UNREAD);
        assertThatThrownBy(() -> splits.deserialize(1, chunk)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> splits.deserialize(1, Arrays.copyOf(bytes, bytes.length - 3)))
                .isInstanceOf(IOException.class);
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> splits.deserialize(3, trailing)).hasMessageContaining("trailing");
        byte[] badKind = bytes.clone();
        badKind[0] = 42;
        assertThatThrownBy(() -> splits.deserialize(3, badKind)).hasMessageContaining("kind");
        assertThatThrownBy(() -> enums.deserialize(7, new byte[2]))
                .hasMessageContaining("version 7");
    }

    /**
     * Writes the version-4 split and version-5 enumerator state files (run once): {@code
     * -Dcapstan.writeSerializerBytes5=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "capstan.writeSerializerBytes5", matches = "true")
    void writeVersion4SplitAndVersion5StateBytes() throws IOException {
        assertThat(splits.getVersion()).isEqualTo(4);
        assertThat(enums.getVersion()).isEqualTo(5);
        for (Map.Entry<String, CapstanSplit> e : SerializerFixtures.splitsV4().entrySet()) {
            Files.write(SerializerFixtures.sourceFile(e.getKey()), splits.serialize(e.getValue()));
        }
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStatesV5().entrySet()) {
            Files.write(SerializerFixtures.sourceFile(e.getKey()), enums.serialize(e.getValue()));
        }
    }

    /**
     * Writes the version-4 enumerator state files (run once, like {@link #writeVersion3Bytes}):
     * {@code -Dcapstan.writeSerializerBytes4=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "capstan.writeSerializerBytes4", matches = "true")
    void writeVersion4Bytes() throws IOException {
        assertThat(enums.getVersion()).isEqualTo(4);
        for (Map.Entry<String, EnumState> e : SerializerFixtures.enumStatesV4().entrySet()) {
            Files.write(SerializerFixtures.sourceFile(e.getKey()), enums.serialize(e.getValue()));
        }
    }

    /**
     * Writes the version-3 files (the version-1 and version-2 files were written by the builds that
     * wrote those versions). Run once when a version is introduced, never again: {@code mvn test
     * -Dtest=SerializerCompatibilityTest -Dcapstan.writeSerializerBytes=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "capstan.writeSerializerBytes", matches = "true")
    void writeVersion3Bytes() throws IOException {
        assertThat(splits.getVersion()).isEqualTo(3);
        for (Map.Entry<String, CapstanSplit> e : SerializerFixtures.splitsV3().entrySet()) {
            Files.write(SerializerFixtures.sourceFile(e.getKey()), splits.serialize(e.getValue()));
        }
        // The version-3 enumerator state files were written by the build that wrote version 3.
    }
}
