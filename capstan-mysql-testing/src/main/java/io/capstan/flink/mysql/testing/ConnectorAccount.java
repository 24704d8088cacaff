package io.capstan.flink.mysql.testing;

import java.util.List;

/**
 * The least-privileged account connector tests connect as: exactly the privileges capstan needs,
 * created with the server's default authentication plugin (no plugin named, so it is
 * caching_sha2_password on MySQL 8.x and 9.x).
 */
final class ConnectorAccount {

    static final String USER = "capstan_connector";
    static final String PASSWORD = "Capstan-connector-1";
    static final String PRIVILEGES = "SELECT, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT";

    private ConnectorAccount() {}

    /** Idempotent: safe to run against a server that already has the account. */
    static List<String> createStatements() {
        return List.of(
                "CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT " + PRIVILEGES + " ON *.* TO '" + USER + "'@'%'");
    }
}
