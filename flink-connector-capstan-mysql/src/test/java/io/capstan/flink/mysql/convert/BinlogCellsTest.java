package io.capstan.flink.mysql.convert;

import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Binlog cell decoding for the types decoded here, from bytes laid out as MySQL stores them. */
class BinlogCellsTest {

    private static ByteArrayInputStream in(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return new ByteArrayInputStream(b);
    }

    private static ByteArrayInputStream bigEndian(long value, int length, int... tail) {
        int[] b = new int[length + tail.length];
        for (int i = 0; i < length; i++) {
            b[i] = (int) (value >>> (8 * (length - 1 - i))) & 0xFF;
        }
        System.arraycopy(tail, 0, b, length, tail.length);
        return in(b);
    }

    private static long hms(long h, long m, long s) {
        return h << 12 | m << 6 | s;
    }

    @Test
    void timeWithoutFraction() throws IOException {
        assertThat(BinlogCells.time2(0, in(0x80, 0x00, 0x00))).isZero();
        assertThat(BinlogCells.time2(0, in(0x7F, 0xFF, 0xFF))).isEqualTo(-1_000_000L);
        long max = (838 * 3600 + 59 * 60 + 59) * 1_000_000L;
        assertThat(BinlogCells.time2(0, bigEndian(0x800000L + hms(838, 59, 59), 3))).isEqualTo(max);
        assertThat(BinlogCells.time2(0, bigEndian(0x800000L - hms(838, 59, 59), 3)))
                .isEqualTo(-max);
    }

    @Test
    void negativeTimeWithHundredths() throws IOException {
        // '-00:00:00.5' as TIME(1): int part -1, fraction byte -50 (0xCE)
        assertThat(BinlogCells.time2(1, in(0x7F, 0xFF, 0xFF, 0xCE))).isEqualTo(-500_000L);
        // '-00:00:01.25' as TIME(2): packed -(1 s + 0.25 s) → int part -2, fraction -25
        assertThat(BinlogCells.time2(2, in(0x7F, 0xFF, 0xFE, 0xE7))).isEqualTo(-1_250_000L);
    }

    @Test
    void negativeTimeWithMilliseconds() throws IOException {
        // '-838:59:58.999' as TIME(3): int part -(hms)-1, fraction 0x10000 - 9990
        long intPart = 0x800000L - hms(838, 59, 58) - 1;
        int frac = 0x10000 - 9990;
        long expected = -((838 * 3600 + 59 * 60 + 58) * 1_000_000L + 999_000L);
        assertThat(BinlogCells.time2(3, bigEndian(intPart, 3, frac >> 8, frac & 0xFF)))
                .isEqualTo(expected);
    }

    @Test
    void timeWithMicroseconds() throws IOException {
        long packed = -((hms(12, 34, 56) << 24) + 500_000L);
        long expected = -((12 * 3600 + 34 * 60 + 56) * 1_000_000L + 500_000L);
        assertThat(BinlogCells.time2(6, bigEndian(packed + 0x800000000000L, 6)))
                .isEqualTo(expected);
        assertThat(BinlogCells.time2(6, bigEndian(0x800000000000L - 1, 6))).isEqualTo(-1L);
    }

    @Test
    void datetimeWithMicroseconds() throws IOException {
        long ymd = ((2020L * 13 + 1) << 5) | 2;
        long intPart = ymd << 17 | hms(3, 4, 5);
        Object micros =
                BinlogCells.datetime2(6, bigEndian(intPart + 0x8000000000L, 5, 0x01, 0xE2, 0x40));
        LocalDateTime expected = LocalDateTime.of(2020, 1, 2, 3, 4, 5, 123_456_000);
        assertThat(micros)
                .isEqualTo(ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), expected));
    }

    @Test
    void datetimeBeforeTheGregorianCutoverIsProleptic() throws IOException {
        long ymd = ((1L * 13 + 1) << 5) | 1;
        Object micros = BinlogCells.datetime2(0, bigEndian((ymd << 17) + 0x8000000000L, 5));
        assertThat(micros).isEqualTo(LocalDate.of(1, 1, 1).toEpochDay() * 86_400_000_000L);
    }

    @Test
    void zeroDatesAreNull() throws IOException {
        assertThat(BinlogCells.datetime2(0, bigEndian(0x8000000000L, 5))).isNull();
        assertThat(BinlogCells.datetime2(6, bigEndian(0x8000000000L, 5, 0, 0, 0))).isNull();
        assertThat(BinlogCells.date(in(0, 0, 0))).isNull();
        assertThat(BinlogCells.timestamp2(0, in(0, 0, 0, 0))).isNull();
        assertThat(BinlogCells.timestamp2(2, in(0, 0, 0, 0, 0))).isNull();
    }

    @Test
    void dateIsEpochDays() throws IOException {
        int v = 9999 << 9 | 12 << 5 | 31;
        assertThat(BinlogCells.date(in(v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF)))
                .isEqualTo((int) LocalDate.of(9999, 12, 31).toEpochDay());
    }

    @Test
    void timestampIsEpochMicros() throws IOException {
        assertThat(BinlogCells.timestamp2(2, in(0, 0, 0, 1, 99))).isEqualTo(1_990_000L);
        long seconds = LocalDateTime.of(2038, 1, 19, 3, 14, 7).toEpochSecond(ZoneOffset.UTC);
        assertThat(BinlogCells.timestamp2(0, bigEndian(seconds, 4)))
                .isEqualTo(seconds * 1_000_000L);
    }

    @Test
    void yearZeroStaysZero() throws IOException {
        assertThat(BinlogCells.year(in(0))).isZero();
        assertThat(BinlogCells.year(in(1))).isEqualTo(1901);
        assertThat(BinlogCells.year(in(255))).isEqualTo(2155);
    }

    @Test
    void bitIsBigEndianBytes() throws IOException {
        // BIT(10): metadata low byte = bits % 8 = 2, high byte = whole bytes = 1
        assertThat(BinlogCells.bit(1 << 8 | 2, in(0x02, 0x01))).containsExactly(0x02, 0x01);
    }

    @Property
    void epochDayMatchesJavaTime(
            @ForAll @IntRange(min = 1, max = 9999) int year,
            @ForAll @IntRange(min = 1, max = 12) int month,
            @ForAll @IntRange(min = 1, max = 28) int day) {
        assertThat(BinlogCells.epochDay(year, month, day))
                .isEqualTo(LocalDate.of(year, month, day).toEpochDay());
    }
}
