package io.capstan.flink.mysql.table;

import java.util.List;

/**
 * Finds the MySQL tables a table definition reads and describes their shapes, at planning time. The
 * production implementation asks the server over JDBC as the configured user.
 */
@FunctionalInterface
interface MySqlTableResolver {

    /**
     * The tables matching the config's database and table patterns, sorted, never empty.
     *
     * @throws org.apache.flink.table.api.ValidationException when none match or the server cannot
     *     be asked; the message names the server, user and patterns, never the password
     */
    List<MySqlTableShape> resolve(MySqlTableDefinition config);

    /**
     * The zone the server shows {@code TIMESTAMP} values in ({@link ServerTimeZone}), asked only
     * when a table declares a MySQL {@code TIMESTAMP} as a wall clock without {@code
     * server-time-zone}.
     *
     * @throws org.apache.flink.table.api.ValidationException when the server cannot be asked or its
     *     zone is unknown to Java
     */
    default java.time.ZoneId serverTimeZone(MySqlTableDefinition config) {
        throw new UnsupportedOperationException("this resolver cannot ask for the time zone");
    }
}
