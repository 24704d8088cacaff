package io.capstan.flink.mysql.schema;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.annotation.Internal;

import java.util.Locale;

/**
 * Why MariaDB's own types {@code UUID}, {@code INET4} and {@code INET6} are refused, at the start
 * and in the stream alike: the binlog writes such a column as plain {@code BINARY(16)} or {@code
 * BINARY(4)} (seen in its table-map events on 10.11), so the stream could not tell it from a real
 * binary column and would deliver bytes where the snapshot shows text.
 */
@Internal
public final class MariaDbOwnTypes {

    private MariaDbOwnTypes() {}

    /**
     * A column of one of these types: its table, name and type ({@code uuid}, as the server says).
     */
    public record Column(TableId table, String name, String dataType) {}

    /** A column type to convert {@code dataType} to, as a remedy's clause; "" for other types. */
    public static String remedy(String dataType) {
        switch (dataType.trim().toLowerCase(Locale.ROOT)) {
            case "uuid":
                return ", for example to CHAR(36),";
            case "inet4":
            case "inet6":
                return ", for example to VARCHAR(39),";
            default:
                return "";
        }
    }

    /**
     * The halt for {@code column}, in the configured table list at a start or restore, before any
     * row is read.
     */
    public static CapstanHaltException refused(Column column) {
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_COLUMN_TYPE,
                "table "
                        + column.table()
                        + " column "
                        + column.name()
                        + " has the type "
                        + column.dataType()
                        + ", which MariaDB's binlog writes as plain BINARY(n): the stream could not"
                        + " tell its values from bytes, and capstan-mysql does not decode the type."
                        + " Remedy: change the column type (see docs/types.md)"
                        + remedy(column.dataType())
                        + " or exclude the table from capture.");
    }

    /**
     * The halt for a statement in the stream that gave captured table {@code table} a column of
     * these types; {@code where} names the transaction ("in transaction 0-1-42").
     */
    public static CapstanHaltException givenInStream(TableId table, String where) {
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_COLUMN_TYPE,
                "captured table "
                        + table
                        + " was given a column of MariaDB's type UUID, INET4 or INET6 "
                        + where
                        + ": the binlog writes such a column as plain BINARY(n), so its values"
                        + " could not be told from bytes, and capstan-mysql does not decode the"
                        + " type. The stream halts at the statement, before any row under it."
                        + " Remedy: change the"
                        + " column type (see docs/types.md), for example to CHAR(36) for a UUID or"
                        + " VARCHAR(39) for an address, or exclude the table from capture; then"
                        + " start the job without state.");
    }

    /**
     * The halt for captured table {@code table}, which came into the stream by a statement that
     * does not tell its columns' types (CREATE TABLE ... LIKE, RENAME TABLE), when its first row
     * event shows a BINARY({@code length}) column, which may be one of these types.
     */
    public static CapstanHaltException untold(TableId table, String column, int length) {
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_COLUMN_TYPE,
                "captured table "
                        + table
                        + " came into the stream by CREATE TABLE ... LIKE or RENAME TABLE, which do"
                        + " not name its column types, and its column "
                        + column
                        + " is written as BINARY("
                        + length
                        + "): on MariaDB that may be a UUID, INET4 or INET6, which the binlog cannot"
                        + " tell from bytes. The stream halts before its first row. Remedy: create"
                        + " the table with its columns written out (CREATE TABLE t (...), or CREATE"
                        + " TABLE t AS SELECT), or exclude it from capture; then start the job"
                        + " without state.");
    }
}
