package io.capstan.flink.mysql.convert;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A TABLE_MAP body as MySQL 8.0.15 writes it for eight INT columns and a YEAR: one signedness byte,
 * where the library reads two. Padded, the library decodes it and every later field.
 */
class SignednessPaddingEventDeserializerTest {

    private static final int LONG = 3;
    private static final int YEAR = 13;

    @Test
    void aSignednessFieldAByteShortIsPaddedAndTheFieldsAfterItStillDecode() throws Exception {
        byte[] body = tableMap(new int[] {LONG, LONG, LONG, LONG, LONG, LONG, LONG, LONG, YEAR});
        assertThatThrownBy(() -> decode(body)).isInstanceOf(Exception.class);

        byte[] padded = SignednessPaddingEventDeserializer.padded(body);
        assertThat(padded).hasSize(body.length + 1);
        TableMapEventData data = decode(padded);
        assertThat(data.getTable()).isEqualTo("t");
        // the server's bit for the first column survives; the names after the field decode
        assertThat(data.getEventMetadata().getSignedness().get(0)).isTrue();
        assertThat(data.getEventMetadata().getColumnNames())
                .isEqualTo(List.of("a", "b", "c", "d", "e", "f", "g", "h", "y"));
    }

    @Test
    void aBodyWhoseFieldIsLongEnoughIsPassedOnUnchanged() {
        byte[] body = tableMap(new int[] {LONG, LONG, YEAR});
        assertThat(SignednessPaddingEventDeserializer.padded(body)).isSameAs(body);
    }

    private static TableMapEventData decode(byte[] body) throws Exception {
        return new TableMapEventDataDeserializer().deserialize(new ByteArrayInputStream(body));
    }

    /** One signedness bit per column except YEAR, as MySQL before 8.0.20 writes it. */
    private static byte[] tableMap(int[] types) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[] {1, 0, 0, 0, 0, 0, 0, 0}); // table id 1, flags 0
        b.write(1);
        b.write('d');
        b.write(0);
        b.write(1);
        b.write('t');
        b.write(0);
        b.write(types.length);
        for (int t : types) {
            b.write(t);
        }
        b.write(0); // no column metadata for INT and YEAR
        b.writeBytes(new byte[(types.length + 7) / 8]); // null bitmap
        int serverCounted = 0;
        for (int t : types) {
            serverCounted += t == YEAR ? 0 : 1;
        }
        int bytes = (serverCounted + 7) / 8;
        b.write(1); // SIGNEDNESS
        b.write(bytes);
        byte[] bits = new byte[bytes];
        bits[0] = (byte) 0x80; // the first numeric column is UNSIGNED
        b.writeBytes(bits);
        String[] names = {"a", "b", "c", "d", "e", "f", "g", "h", "y"};
        ByteArrayOutputStream n = new ByteArrayOutputStream();
        for (int i = 0; i < types.length; i++) {
            n.write(1);
            n.write(names[i].charAt(0));
        }
        b.write(4); // COLUMN_NAME
        b.write(n.size());
        b.writeBytes(n.toByteArray());
        return b.toByteArray();
    }
}
