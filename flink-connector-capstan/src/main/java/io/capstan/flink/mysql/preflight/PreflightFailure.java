package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.HaltReason;

import org.apache.flink.annotation.PublicEvolving;

import java.io.Serializable;
import java.util.Objects;

/**
 * One reason the server is unsafe to read from: what is wrong (a setting, privilege or table), what
 * was found (a setting's value or "not granted", never a row value or a password) and the exact
 * statement or config line that fixes it.
 */
@PublicEvolving
public final class PreflightFailure implements Serializable {
    private static final long serialVersionUID = 1L;

    private final HaltReason reason;
    private final String subject;
    private final String found;
    private final String remedy;

    public PreflightFailure(HaltReason reason, String subject, String found, String remedy) {
        this.reason = Objects.requireNonNull(reason, "reason");
        this.subject = Objects.requireNonNull(subject, "subject");
        this.found = Objects.requireNonNull(found, "found");
        this.remedy = Objects.requireNonNull(remedy, "remedy");
    }

    public HaltReason reason() {
        return reason;
    }

    /** The setting, privilege or table concerned, e.g. {@code binlog_format}. */
    public String subject() {
        return subject;
    }

    /** What preflight found, e.g. {@code 'STATEMENT' (must be ROW)}. */
    public String found() {
        return found;
    }

    /** The SQL statement(s) or my.cnf lines that fix it. */
    public String remedy() {
        return remedy;
    }

    /** One line: {@code [reason] subject: found. Fix: remedy}. */
    public String describe() {
        return "[" + reason.code() + "] " + subject + ": " + found + ". Fix: " + remedy;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PreflightFailure)) {
            return false;
        }
        PreflightFailure f = (PreflightFailure) o;
        return reason == f.reason
                && subject.equals(f.subject)
                && found.equals(f.found)
                && remedy.equals(f.remedy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reason, subject, found, remedy);
    }

    @Override
    public String toString() {
        return describe();
    }
}
