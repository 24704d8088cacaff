package io.capstan.flink.mysql.snapshot.gate;

import org.apache.flink.annotation.Internal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * A state body written through deflate. Buffered on both sides: the body is written and read a byte
 * at a time (varints), and each unbuffered byte would be its own call into zlib.
 */
@Internal
public final class Deflated {

    private static final int BUFFER = 1 << 16;

    private Deflated() {}

    /** What writes the body. */
    @FunctionalInterface
    public interface Body {
        void writeTo(DataOutputStream out) throws IOException;
    }

    public static byte[] pack(Body body) throws IOException {
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (DataOutputStream out =
                new DataOutputStream(
                        new BufferedOutputStream(
                                new DeflaterOutputStream(packed, deflater, BUFFER), BUFFER))) {
            body.writeTo(out);
        } finally {
            deflater.end();
        }
        return packed.toByteArray();
    }

    /** The body of {@code packed}; the caller closes it. */
    public static DataInputStream unpack(byte[] packed) {
        return new DataInputStream(
                new BufferedInputStream(
                        new InflaterInputStream(new ByteArrayInputStream(packed)), BUFFER));
    }
}
