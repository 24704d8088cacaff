package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.source.CapstanSourceConfig;

import java.util.Objects;
import java.util.Optional;

/**
 * A {@code capstan-mysql} table after validation: the source configuration (validated by {@link
 * CapstanSourceConfig#validate}, as for the DataStream builder) and the name patterns the table
 * gave, kept for messages. Its string form shows no password (the connection masks it).
 */
record MySqlTableDefinition(
        CapstanSourceConfig source, String databasePattern, String tablePattern) {

    MySqlTableDefinition {
        Objects.requireNonNull(source);
        Objects.requireNonNull(databasePattern);
        Objects.requireNonNull(tablePattern);
    }

    StartupMode startupMode() {
        return source.startupOptions().mode();
    }

    /** {@code scan.incremental.snapshot.chunk.key-column}, if set. */
    Optional<String> chunkKeyColumn() {
        return source.snapshot().chunkKeyColumnForAllTables();
    }
}
