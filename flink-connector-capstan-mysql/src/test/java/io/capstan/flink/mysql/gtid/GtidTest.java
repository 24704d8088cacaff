package io.capstan.flink.mysql.gtid;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GtidTest {

    private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    @Test
    void parsesUntaggedAndTaggedForms() {
        Gtid g = Gtid.parse(U + ":23");
        assertThat(g.uuid()).isEqualTo(U);
        assertThat(g.tag()).isEmpty();
        assertThat(g.isTagged()).isFalse();
        assertThat(g.transactionId()).isEqualTo(23);
        assertThat(g.toString()).isEqualTo(U + ":23");

        Gtid t = Gtid.parse(" " + U.toUpperCase() + ":Tag_1:7\n");
        assertThat(t.uuid()).isEqualTo(U);
        assertThat(t.tag()).isEqualTo("tag_1");
        assertThat(t.toString()).isEqualTo(U + ":tag_1:7");
        assertThat(Gtid.of(U.toUpperCase(), "TAG_1", 7)).isEqualTo(t);
    }

    @Test
    void ordersByUuidThenTagThenNumber() {
        Gtid a = Gtid.of(U, 9);
        Gtid b = Gtid.of(U, "a", 1);
        Gtid c = Gtid.of(U, "a", 2);
        Gtid d = Gtid.of("4e11fa47-71ca-11e1-9e33-c80aa9429562", 1);
        assertThat(a).isLessThan(b);
        assertThat(b).isLessThan(c);
        assertThat(c).isLessThan(d);
        assertThat(Gtid.of(U, 9)).isEqualTo(a).hasSameHashCodeAs(a);
    }

    @Test
    void rejectsInvalidText() {
        assertThatThrownBy(() -> Gtid.parse(U + ":0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + U + ":0'")
                .hasMessageContaining("'0'");
        assertThatThrownBy(() -> Gtid.parse(U)).hasMessageContaining("'" + U + "'");
        assertThatThrownBy(() -> Gtid.parse("3e11fa47-71ca-11e1-9e33-c80aa942956g:1"))
                .hasMessageContaining("'3e11fa47-71ca-11e1-9e33-c80aa942956g'");
        assertThatThrownBy(() -> Gtid.parse(U + ":9tag:1")).hasMessageContaining("'9tag'");
        assertThatThrownBy(() -> Gtid.parse(U + ":1-2")).hasMessageContaining("'1-2'");
        assertThatThrownBy(() -> Gtid.of(U, "a".repeat(33), 1)).hasMessageContaining("32");
        assertThatThrownBy(() -> Gtid.of(U, Long.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Gtid.parse(U + ":99999999999999999999"))
                .hasMessageContaining("'99999999999999999999'");
    }

    @Test
    void serializesRoundTrip() throws Exception {
        Gtid g = Gtid.of(U, "t", 5);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(g);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(g);
        }
    }

    @Test
    void refusesCorruptSerializedData() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(Gtid.of(U, "t", 5));
        }
        byte[] data = bytes.toByteArray();
        byte[] uuid = U.getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(data, uuid);
        assertThat(at).isNotNegative();
        data[at + uuid.length - 1] = 'g'; // no longer a hex digit
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(data))) {
            assertThatThrownBy(in::readObject)
                    .isInstanceOf(InvalidObjectException.class)
                    .hasMessageContaining("3e11fa47-71ca-11e1-9e33-c80aa942956g");
        }
    }

    private static int indexOf(byte[] data, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= data.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (data[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
