package io.capstan.flink.mysql.table;

import org.apache.flink.table.data.StringData;

import java.util.Base64;
import java.util.HexFormat;

/**
 * How binary columns ({@code BINARY}, {@code VARBINARY}, {@code BLOB}s) are read, after mysql-cdc's
 * {@code debezium.binary.handling.mode}: as bytes (the default), or as the text Debezium makes of
 * them, which mysql-cdc hands to a column declared {@code STRING}: standard Base64 with padding, or
 * lower-case hexadecimal.
 */
enum BinaryTextEncoding {
    BYTES,
    BASE64,
    HEX;

    /** The mode's value as written, case-insensitive; empty when it is no mode Debezium has. */
    static java.util.Optional<BinaryTextEncoding> ofMode(String mode) {
        switch (mode.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "bytes":
                return java.util.Optional.of(BYTES);
            case "base64":
                return java.util.Optional.of(BASE64);
            case "hex":
                return java.util.Optional.of(HEX);
            default:
                return java.util.Optional.empty();
        }
    }

    /** The mode's name as Debezium writes it. */
    String mode() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The text of a binary value; this must not be {@link #BYTES}. */
    FieldWidening encoder() {
        switch (this) {
            case BASE64:
                return value ->
                        StringData.fromString(Base64.getEncoder().encodeToString((byte[]) value));
            case HEX:
                return value -> StringData.fromString(HexFormat.of().formatHex((byte[]) value));
            default:
                throw new IllegalStateException("binary columns are read as bytes");
        }
    }
}
