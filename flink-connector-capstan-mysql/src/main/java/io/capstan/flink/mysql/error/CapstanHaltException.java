package io.capstan.flink.mysql.error;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A refusal to start or a stop of a running job for a named {@link HaltReason}.
 *
 * <p>Messages name the reason, the subject (a setting, table or position) and the remedy. By the
 * no-values rule they never carry row values, key values, chunk boundaries or passwords: build them
 * only from identifiers and settings.
 *
 * <p>Not recoverable by a restart: Flink fails the job at once, whatever its restart strategy (a
 * restart from the last checkpoint would meet the same setting, table or position again). The
 * annotation is read by Flink's failure handler anywhere in the cause chain.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
@PublicEvolving
public class CapstanHaltException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final HaltReason reason;

    public CapstanHaltException(HaltReason reason, String message) {
        super("[" + reason.code() + "] " + message);
        this.reason = reason;
    }

    public CapstanHaltException(HaltReason reason, String message, Throwable cause) {
        super("[" + reason.code() + "] " + message, cause);
        this.reason = reason;
    }

    public HaltReason reason() {
        return reason;
    }
}
