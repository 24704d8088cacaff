package io.capstan.flink.mysql.convert;

import org.apache.flink.annotation.Internal;

import java.io.InputStream;

/**
 * An unsynchronized {@link InputStream} over a byte array, with mark/reset, for the binlog
 * library's readers: they read byte by byte, and {@link java.io.ByteArrayInputStream} takes a lock
 * per byte. Single-threaded by design.
 */
@Internal
public final class ByteArraySource extends InputStream {
    private final byte[] bytes;
    private final int end;
    private int pos;
    private int mark;

    public ByteArraySource(byte[] bytes) {
        this.bytes = bytes;
        this.end = bytes.length;
    }

    @Override
    public int read() {
        return pos < end ? bytes[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        int n = Math.min(len, end - pos);
        if (n <= 0) {
            return -1;
        }
        System.arraycopy(bytes, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public long skip(long n) {
        long k = Math.max(0, Math.min(n, end - pos));
        pos += (int) k;
        return k;
    }

    @Override
    public int available() {
        return end - pos;
    }

    @Override
    public boolean markSupported() {
        return true;
    }

    @Override
    public void mark(int readLimit) {
        mark = pos;
    }

    @Override
    public void reset() {
        pos = mark;
    }
}
