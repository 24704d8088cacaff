package io.capstan.flink.mysql.source.enumerator;

import org.apache.flink.util.FlinkRuntimeException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * How a failed asynchronous call fails the enumerator: thrown from its result handler, the cause (a
 * halt, unwrapped from the executor's wrappers) fails the job by name.
 */
final class EnumeratorFailures {

    private static final Logger LOG = LoggerFactory.getLogger(CapstanEnumerator.class);

    private EnumeratorFailures() {}

    /** The exception to throw: {@code what} could not be done because of {@code error}. */
    static RuntimeException fail(String what, Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        LOG.error("capstan-mysql {}: {}", what, cause.getMessage());
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        return new FlinkRuntimeException("capstan-mysql " + what, cause);
    }
}
