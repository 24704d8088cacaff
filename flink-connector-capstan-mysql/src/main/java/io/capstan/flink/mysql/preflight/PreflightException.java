package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.error.CapstanHaltException;

import org.apache.flink.annotation.PublicEvolving;

import java.util.List;

/**
 * Preflight refused the server. The {@link #reason()} is the first failure's; {@link #failures()}
 * holds all of them and the message lists each on its own line with its remedy. The message is
 * built from settings, privileges and identifiers only: never a password or a row value.
 */
@PublicEvolving
public final class PreflightException extends CapstanHaltException {
    private static final long serialVersionUID = 1L;

    private final List<PreflightFailure> failures;

    public PreflightException(String serverAddress, List<PreflightFailure> failures) {
        super(first(failures).reason(), message(serverAddress, failures));
        this.failures = List.copyOf(failures);
    }

    public List<PreflightFailure> failures() {
        return failures;
    }

    private static PreflightFailure first(List<PreflightFailure> failures) {
        if (failures.isEmpty()) {
            throw new IllegalArgumentException("a preflight refusal needs at least one failure");
        }
        return failures.get(0);
    }

    private static String message(String serverAddress, List<PreflightFailure> failures) {
        StringBuilder sb =
                new StringBuilder("server ")
                        .append(serverAddress)
                        .append(" is not safe to capture from; preflight found ")
                        .append(failures.size())
                        .append(failures.size() == 1 ? " problem" : " problems")
                        .append(" (see docs/operations.md, \"Preflight failures\"):");
        for (PreflightFailure f : failures) {
            sb.append(System.lineSeparator()).append("  ").append(f.describe());
        }
        return sb.toString();
    }
}
