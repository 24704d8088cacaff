package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.annotation.PublicEvolving;

import java.io.Serializable;
import java.util.Objects;

/**
 * One reason the server is unsafe to read from: what is wrong (a setting, privilege or table), what
 * was found (a setting's value or "not granted", never a row value or a password) and the exact
 * statement or config line that fixes it.
 *
 * @param subject the setting, privilege or table concerned, e.g. {@code binlog_format}
 * @param found what preflight found, e.g. {@code 'STATEMENT' (must be ROW)}
 * @param remedy the SQL statement(s) or my.cnf lines that fix it
 */
@PublicEvolving
public record PreflightFailure(HaltReason reason, String subject, String found, String remedy)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    public PreflightFailure {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(remedy, "remedy");
    }

    /** One line: {@code [reason] subject: found. Fix: remedy}. */
    public String describe() {
        return "[" + reason.code() + "] " + subject + ": " + found + ". Fix: " + remedy;
    }

    @Override
    public String toString() {
        return describe();
    }
}
