package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.source.CapstanSourceConfig;

import javax.annotation.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * A {@code capstan-mysql} table after validation: the source configuration (validated by {@link
 * CapstanSourceConfig#validate}, as for the DataStream builder) and the name patterns the table
 * gave, kept for messages. Its string form shows no password (the connection masks it).
 *
 * @param keyColumn {@code scan.incremental.snapshot.chunk.key-column} as written, in every mode:
 *     besides cutting chunks (which only the snapshot modes do, through {@code source}) it names
 *     the unique column a declared PRIMARY KEY may use on a table without one, so that a hint
 *     switching the mode does not invalidate the table's declared key
 */
record MySqlTableDefinition(
        CapstanSourceConfig source,
        String databasePattern,
        String tablePattern,
        @Nullable String keyColumn) {

    MySqlTableDefinition {
        Objects.requireNonNull(source);
        Objects.requireNonNull(databasePattern);
        Objects.requireNonNull(tablePattern);
    }

    StartupMode startupMode() {
        return source.startupOptions().mode();
    }

    /** {@code scan.incremental.snapshot.chunk.key-column}, if set, whatever the mode. */
    Optional<String> chunkKeyColumn() {
        return Optional.ofNullable(keyColumn);
    }
}
