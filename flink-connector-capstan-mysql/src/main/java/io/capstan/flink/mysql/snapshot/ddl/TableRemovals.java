package io.capstan.flink.mysql.snapshot.ddl;

import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer.Token;

import org.apache.flink.annotation.Internal;

import java.util.List;
import java.util.Optional;

/**
 * What a DDL statement does to existing tables, for the binlog's captured-table check: the tables
 * it empties (TRUNCATE) and removes (DROP TABLE, MariaDB's CREATE OR REPLACE TABLE, the old names
 * of RENAME TABLE and ALTER TABLE ... RENAME), the databases it drops, and the tables whose rows it
 * removes or replaces in part (ALTER TABLE ... TRUNCATE/DROP/EXCHANGE PARTITION, DISCARD/IMPORT
 * TABLESPACE, ENGINE=BLACKHOLE), and those it makes system-versioned (MariaDB's {@code ADD SYSTEM
 * VERSIONING}: its row events then hold history rows, and a DELETE arrives as an update), and those
 * given a column of MariaDB's UUID, INET4 or INET6 ({@code mariaDbTyped}: the binlog writes it as
 * plain BINARY(n), so only the statement tells it). Read by {@link SnapshotDdlGuard}'s parser; each
 * table is {@code {database or null, table}} as written.
 */
@Internal
public record TableRemovals(
        List<String[]> truncated,
        List<String[]> removed,
        List<String> databases,
        List<String[]> rowsReplaced,
        List<String[]> versioned,
        List<String[]> mariaDbTyped) {

    /** The removals of {@code sql}; empty when the statement is not understood. */
    public static Optional<TableRemovals> of(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlTokenizer.tokenize(sql);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (tokens.isEmpty()) {
            return Optional.of(
                    new TableRemovals(
                            List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
        }
        return SnapshotDdlGuard.Parser.targets(tokens)
                .map(
                        t ->
                                new TableRemovals(
                                        t.truncated,
                                        t.removed,
                                        t.databases,
                                        t.rowsReplaced,
                                        t.versioned,
                                        t.mariaDbTyped));
    }
}
