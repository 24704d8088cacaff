package io.capstan.flink.mysql.source.split;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Strings as length-prefixed UTF-8, without DataOutput.writeUTF's 64 KiB limit (GTID sets can be
 * long).
 */
@Internal
public final class SerdeText {
    private SerdeText() {}

    public static void write(DataOutputView out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    public static String read(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt state: negative string length");
        }
        byte[] bytes = new byte[n];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
