package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.proxy.server.JdbcTableDiscovery;
import io.capstan.flink.mysql.schema.JdbcSchemaReader;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.table.api.ValidationException;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the MySQL server, over JDBC as the configured user, which tables the patterns match and what
 * their columns are. Runs at planning time; messages name server, user and patterns only.
 */
final class JdbcMySqlTableResolver implements MySqlTableResolver {

    @Override
    public List<MySqlTableShape> resolve(MySqlTableDefinition config) {
        MySqlConnectionConfig connection = config.source().connection();
        List<TableId> tables;
        try {
            tables = JdbcTableDiscovery.resolve(connection, config.source().tables());
        } catch (CapstanHaltException e) {
            if (e.reason() == HaltReason.NO_TABLES_MATCHED) {
                throw new ValidationException(
                        "No MySQL base table on "
                                + connection.address()
                                + " matches 'database-name' = '"
                                + config.databasePattern()
                                + "' and 'table-name' = '"
                                + config.tablePattern()
                                + "' (regular expressions matched against whole names; views and"
                                + " system schemas are never read). Check the names and that user '"
                                + connection.username()
                                + "' has SELECT on the tables.");
            }
            throw new ValidationException(e.getMessage(), e);
        } catch (SQLException e) {
            throw unreachable(connection, e);
        }
        List<MySqlTableShape> shapes = new ArrayList<>();
        try (Connection c = JdbcConnections.open(connection)) {
            for (TableId id : tables) {
                shapes.add(MySqlTableShapes.of(JdbcSchemaReader.read(c, id)));
            }
        } catch (CapstanHaltException e) {
            // An unsupported column type and the like: the message names table and column.
            throw new ValidationException(e.getMessage(), e);
        } catch (SQLException e) {
            throw unreachable(connection, e);
        }
        return shapes;
    }

    private static ValidationException unreachable(
            MySqlConnectionConfig connection, SQLException e) {
        // The driver's messages name host and user, never the password.
        return new ValidationException(
                "Could not read the MySQL tables' schema from "
                        + connection.address()
                        + " as user '"
                        + connection.username()
                        + "' to check the declared table (SQLState "
                        + e.getSQLState()
                        + ", error "
                        + e.getErrorCode()
                        + "): "
                        + e.getMessage(),
                e);
    }
}
