package io.capstan.flink.mysql.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads what mysqld logged since a given offset of its error log, to see it become ready or why it
 * exited. Every read failure counts as "nothing logged yet".
 */
final class ErrorLogTail {

    private ErrorLogTail() {}

    /** The log's current size: the offset to read a new start's lines from. */
    static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** What the file holds past {@code offset}, at most 1 MiB of it, as UTF-8. */
    static String readFrom(Path file, long offset) {
        if (!Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long len = f.length() - offset;
            if (len <= 0) {
                return "";
            }
            byte[] bytes = new byte[(int) Math.min(len, 1 << 20)];
            f.seek(offset);
            f.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last {@code n} lines of {@code text}, for an exception message. */
    static String lastLines(String text, int n) {
        String[] lines = text.split("\n");
        return String.join(
                "\n", Arrays.asList(lines).subList(Math.max(0, lines.length - n), lines.length));
    }
}
