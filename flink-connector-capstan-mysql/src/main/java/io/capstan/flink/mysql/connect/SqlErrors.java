package io.capstan.flink.mysql.connect;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.sql.SQLException;

/**
 * Turns driver errors into value-free exceptions (the no-values rule): a server message may quote a
 * value ("Incorrect datetime value: '...'"), so only the error code and SQLState are kept, except
 * for connection failures (SQLState class 08), whose messages describe the network only. A refused
 * login (class 28) says so in words of its own.
 */
@Internal
public final class SqlErrors {

    private SqlErrors() {}

    public static IOException scrub(String what, SQLException e) {
        String state = String.valueOf(e.getSQLState());
        String text = what + " (MySQL error " + e.getErrorCode() + ", SQLState " + state + ")";
        if (state.startsWith("28")) {
            return new IOException(
                    text + ": Access denied; check the user name, the password and its grants");
        }
        return state.startsWith("08") ? new IOException(text, e) : new IOException(text);
    }

    public static boolean isLockWaitTimeout(SQLException e) {
        return e.getErrorCode() == 1205; // ER_LOCK_WAIT_TIMEOUT, also for LOCK TABLES
    }

    public static boolean isStatementTimeout(SQLException e) {
        // MySQL's ER_QUERY_TIMEOUT (MAX_EXECUTION_TIME), MariaDB's ER_STATEMENT_TIMEOUT
        // (max_statement_time)
        return e.getErrorCode() == 3024 || e.getErrorCode() == 1969;
    }

    public static boolean isUnknownColumn(SQLException e) {
        return e.getErrorCode() == 1054; // ER_BAD_FIELD_ERROR: a selected column was dropped
    }

    public static boolean isUnknownTable(SQLException e) {
        return e.getErrorCode() == 1146; // ER_NO_SUCH_TABLE: dropped or renamed
    }

    public static boolean isTableDefinitionChanged(SQLException e) {
        return e.getErrorCode() == 1412; // ER_TABLE_DEF_CHANGED: DDL after the read view opened
    }
}
