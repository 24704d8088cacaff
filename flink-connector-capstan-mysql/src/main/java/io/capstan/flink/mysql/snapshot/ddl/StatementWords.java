package io.capstan.flink.mysql.snapshot.ddl;

import java.util.Set;

/**
 * The words {@link SnapshotDdlGuard}'s parser tells statements apart by: leading words of
 * statements that never change a table, and the objects other than tables that CREATE, ALTER and
 * DROP name.
 */
final class StatementWords {

    private StatementWords() {}

    /** Leading words of statements that never change a table. */
    static final Set<String> HARMLESS_LEADING =
            Set.of(
                    "GRANT",
                    "REVOKE",
                    "FLUSH",
                    "BEGIN",
                    "COMMIT",
                    "ROLLBACK",
                    "SAVEPOINT",
                    "RELEASE",
                    "XA",
                    "SET",
                    "INSTALL",
                    "UNINSTALL",
                    "ANALYZE",
                    "USE",
                    "DO",
                    "SELECT",
                    "SHOW",
                    "CHECK",
                    "CHECKSUM",
                    "CALL",
                    "HELP",
                    "KILL",
                    "RESET",
                    "START",
                    "STOP");

    /** Objects other than tables, for CREATE / ALTER / DROP. */
    static final Set<String> OTHER_OBJECTS =
            Set.of(
                    "VIEW",
                    "TRIGGER",
                    "FUNCTION",
                    "PROCEDURE",
                    "EVENT",
                    "USER",
                    "ROLE",
                    "SERVER",
                    "TABLESPACE",
                    "LOGFILE",
                    "RESOURCE",
                    "UNDO",
                    "INSTANCE",
                    "AGGREGATE",
                    "SEQUENCE"); // MariaDB's: a table internally, never captured
}
