package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

/**
 * The check a source runs before it reads anything: it reads the server's settings and the
 * account's privileges and refuses, with every problem and its fix, when capturing would be unsafe.
 */
@Internal
public final class Preflight {

    private static final Logger LOG = LoggerFactory.getLogger(Preflight.class);

    private Preflight() {}

    /**
     * Verifies that the server at {@code config} can be captured from safely for {@code tables} and
     * {@code scope}.
     *
     * @throws PreflightException listing every problem found, each with its remedy
     * @throws SQLException if the server cannot be reached or read (not a refusal: retryable)
     */
    public static void verify(
            MySqlConnectionConfig config, Collection<TableId> tables, CaptureScope scope)
            throws SQLException {
        try (Connection connection = JdbcConnections.open(config)) {
            check(ServerFactsReader.read(connection), config.address(), tables, scope);
        }
    }

    /**
     * The refusal itself, on facts already read (by the JDBC proxy or a test). Pure.
     *
     * @throws PreflightException listing every problem found, each with its remedy
     */
    public static void check(
            ServerFacts facts,
            String serverAddress,
            Collection<TableId> tables,
            CaptureScope scope) {
        List<PreflightFailure> failures = PreflightRules.check(facts, tables, scope);
        if (!failures.isEmpty()) {
            throw new PreflightException(serverAddress, failures);
        }
        if (facts.version().isMariaDb()) {
            if (PreflightRules.positionMode(facts)) {
                LOG.info(
                        "{} is {} with gtid_strict_mode OFF: the job runs on binlog file"
                                + " positions, exact on this server only; a failover, RESET"
                                + " MASTER or a purged file halts it. With gtid_strict_mode = ON"
                                + " a job runs on MariaDB GTIDs and follows a failover"
                                + " (docs/operations.md, MariaDB)",
                        serverAddress,
                        facts.version());
            } else {
                LOG.info(
                        "{} is {} with gtid_strict_mode ON: the job runs on MariaDB GTIDs"
                                + " (docs/operations.md, MariaDB)",
                        serverAddress,
                        facts.version());
            }
        } else if (PreflightRules.positionMode(facts)) {
            LOG.info(
                    "{} has gtid_mode {}: the job runs on binlog file positions, exact on this"
                            + " server only; a failover, RESET MASTER or a purged file halts it"
                            + " (docs/operations.md, Servers without GTIDs)",
                    serverAddress,
                    facts.variable("gtid_mode").orElse("OFF"));
        }
    }
}
