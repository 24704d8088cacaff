package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * Starts the embedded MySQL a benchmark run uses when no {@code --mysql-url} is given. The
 * implementation wraps the connector's test harness and lives in this module's test sources (the
 * harness ships in the connector's test-jar, which main code does not depend on); the {@code bench}
 * Maven profile runs with the test classpath, where {@link java.util.ServiceLoader} finds it.
 */
public interface EmbeddedMySqlProvider {

    /** A running server; {@link #close()} stops and deletes it. */
    interface Server extends AutoCloseable {
        /** An administrator connection, for creating and changing the data. */
        Connection openRootConnection() throws SQLException;

        /** The least-privileged connector account (SELECT, LOCK TABLES, REPLICATION SLAVE/CLIENT). */
        MySqlConnectionConfig connectorConfig();

        @Override
        void close();
    }

    /** Starts a fresh server with the harness's safe defaults plus {@code extraMysqldFlags}. */
    Server start(String extraMysqldFlags);

    static EmbeddedMySqlProvider load() {
        Iterator<EmbeddedMySqlProvider> it = ServiceLoader.load(EmbeddedMySqlProvider.class).iterator();
        if (!it.hasNext()) {
            throw new IllegalStateException("no embedded MySQL on this classpath: run the benchmark with the"
                    + " Maven profile 'bench' (docs/performance.md), or give --mysql-url for your own server");
        }
        return it.next();
    }
}
