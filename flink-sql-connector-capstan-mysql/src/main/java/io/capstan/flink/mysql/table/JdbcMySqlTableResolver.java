package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.proxy.server.ServerJdbcProxy;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.source.TableDiscovery;

import org.apache.flink.table.api.ValidationException;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the MySQL server, over one JDBC connection as the configured user, which tables the patterns
 * match and what their columns are. Runs at planning time; messages name server, user and patterns
 * only.
 */
final class JdbcMySqlTableResolver implements MySqlTableResolver {

    @Override
    public List<MySqlTableShape> resolve(MySqlTableDefinition config) {
        MySqlConnectionConfig connection = config.source().connection();
        try (JdbcProxy mysql = new ServerJdbcProxy(connection)) {
            List<TableId> tables;
            try {
                tables = TableDiscovery.resolve(mysql, config.source().tables());
            } catch (CapstanHaltException e) {
                if (e.reason() == HaltReason.NO_TABLES_MATCHED) {
                    throw new ValidationException(
                            "No MySQL base table on "
                                    + connection.address()
                                    + " matches 'database-name' = '"
                                    + config.databasePattern()
                                    + "' and 'table-name' = '"
                                    + config.tablePattern()
                                    + "' (regular expressions matched against whole names; views"
                                    + " and system schemas are never read). Check the names and"
                                    + " that user '"
                                    + connection.username()
                                    + "' has SELECT on the tables.");
                }
                throw new ValidationException(e.getMessage(), e);
            }
            List<MySqlTableShape> shapes = new ArrayList<>();
            for (TableId id : tables) {
                TableSchema schema = mysql.tableSchema(id);
                boolean identifies = true;
                if (schema.keyColumnIndexes().length == 0 && config.chunkKeyColumn().isPresent()) {
                    identifies =
                            ChunkKeyResolver.resolve(mysql.keyMetadata(id), config.chunkKeyColumn())
                                    .identifiesRows();
                }
                shapes.add(MySqlTableShapes.of(schema, identifies));
            }
            return shapes;
        } catch (CapstanHaltException e) {
            // An unsupported column type and the like: the message names table and column.
            throw new ValidationException(e.getMessage(), e);
        } catch (IOException e) {
            throw unreachable(connection, e);
        }
    }

    @Override
    public ZoneId serverTimeZone(MySqlTableDefinition config) {
        MySqlConnectionConfig connection = config.source().connection();
        // The connector's sessions run in UTC: the server's own zone is the global one.
        try (Connection c = JdbcConnections.open(connection);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@GLOBAL.time_zone, @@system_time_zone")) {
            rs.next();
            return ServerTimeZone.of(rs.getString(1), rs.getString(2));
        } catch (SQLException e) {
            throw unreachable(connection, new IOException("reading the server's time_zone", e));
        }
    }

    private static ValidationException unreachable(
            MySqlConnectionConfig connection, IOException e) {
        // The proxy's message names the operation, MySQL error and SQLState, never a value; only a
        // connection failure keeps the driver's exception (its message names host and user, never
        // the password) as the cause.
        return new ValidationException(
                "Could not read the MySQL tables' schema from "
                        + connection.address()
                        + " as user '"
                        + connection.username()
                        + "' to check the declared table: "
                        + e.getMessage()
                        + (e.getCause() == null ? "" : ": " + e.getCause().getMessage()),
                e);
    }
}
