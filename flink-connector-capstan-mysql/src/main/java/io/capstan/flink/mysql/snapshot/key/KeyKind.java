package io.capstan.flink.mysql.snapshot.key;

import org.apache.flink.annotation.Internal;

/**
 * How MySQL orders the values of one chunk key column, and which Flink internal value carries them.
 * Only kinds whose order the connector reproduces exactly are here; TEXT, ENUM, SET and
 * floating-point keys are refused by {@link ChunkKeyResolver} (see docs/snapshot.md). New kinds go
 * at the end: the ordinal is in checkpointed state.
 */
@Internal
public enum KeyKind {
    /**
     * TINYINT..BIGINT, signed or unsigned (BIGINT UNSIGNED as DecimalData(20,0)): numeric order.
     */
    INTEGER,
    /** DECIMAL(p,s) as DecimalData: order by value. */
    DECIMAL,
    /** DATE as Integer days since 1970-01-01. */
    DATE,
    /** TIME as Integer milliseconds or Long microseconds (signed, may exceed a day). */
    TIME,
    /** DATETIME(n) as TimestampData (wall-clock). */
    DATETIME,
    /** TIMESTAMP(n) as TimestampData (UTC wall-clock, as the session time zone is UTC). */
    TIMESTAMP,
    /** YEAR as Integer. */
    YEAR,
    /** BINARY(n) as byte[]: unsigned bytewise, trailing 0x00 padding to n is insignificant. */
    BINARY,
    /** VARBINARY(n) as byte[]: unsigned bytewise, a proper prefix sorts first. */
    VARBINARY,
    /** BIT(1) as Boolean, BIT(n) as big-endian byte[]: numeric order. */
    BIT,
    /**
     * CHAR/VARCHAR in a binary collation with PAD SPACE ({@code utf8mb4_bin}, {@code utf8mb3_bin},
     * {@code ascii_bin}) as StringData: code point order, which is the order of the UTF-8 bytes,
     * with the shorter value padded with spaces (trailing spaces never decide).
     */
    STRING_PAD_SPACE,
    /**
     * CHAR/VARCHAR in any other collation as {@link CollatedString}: ordered by the weight the
     * server computes ({@code WEIGHT_STRING}) in the column's {@link KeyCollation}, never by Java.
     */
    STRING_COLLATED
}
