package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The type matrix of {@link TypeMatrixIT} on a real MariaDB (Debian's {@code mariadbd}), read from
 * binlog positions: snapshot values equal hand-written ones and binlog values equal snapshot ones.
 */
class MariaDbTypeMatrixIT {

    private static MySqlServer server;

    /** Stops the server after its database is dropped (extensions unwind in order). */
    @RegisterExtension
    @Order(1)
    static final AfterAllCallback STOP =
            context -> {
                if (server != null) {
                    server.close();
                }
            };

    @RegisterExtension
    @Order(2)
    static final MySqlTestDatabase DB =
            new MySqlTestDatabase(() -> server = MariaDbServer.startForCapture(43));

    @Test
    void jdbcMatchesExpectedAndBinlogMatchesJdbc() throws Exception {
        new TypeMatrix(DB, true).run();
    }
}
