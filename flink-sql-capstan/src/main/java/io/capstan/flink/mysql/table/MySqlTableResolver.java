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
}
