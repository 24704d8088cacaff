package io.capstan.flink.mysql.snapshot.jdbc;

import io.capstan.flink.mysql.testing.MariaDbServer;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

/**
 * {@link CollatedKeyOrderIT} on a real MariaDB (Debian's {@code mariadbd}): the connector's order
 * of a collated key, over the weights MariaDB computes, is MariaDB's own in each of its collations
 * a chunk key may have, PAD SPACE and NO PAD.
 */
class MariaDbCollatedKeyOrderIT extends CollatedKeyOrderIT {

    @RegisterExtension
    static final MySqlTestDatabase MARIADB =
            MySqlTestDatabase.onServerOfItsOwn(() -> MariaDbServer.startForCapture(61));

    @Override
    protected MySqlTestDatabase db() {
        return MARIADB;
    }

    /**
     * MariaDB 10.11's collations a collated chunk key may have (it has no UCA 9.0.0 ones). A {@code
     * _bin} collation is not among them: its CHAR values have no ties of different texts, which the
     * check needs to see.
     */
    static List<String> collations() {
        return List.of(
                "utf8mb4_general_ci",
                "utf8mb4_unicode_ci",
                "utf8mb4_unicode_520_ci",
                "utf8mb4_general_nopad_ci",
                "utf8mb4_unicode_nopad_ci",
                "latin1_swedish_ci",
                "utf8mb3_general_ci",
                "ascii_general_ci");
    }

    @Override
    protected boolean documentedPadSpace(String collation) {
        return !collation.contains("nopad"); // MariaDB names its NO PAD collations so
    }

    @Override
    protected String noPadCollation() {
        return "utf8mb4_general_nopad_ci";
    }
}
