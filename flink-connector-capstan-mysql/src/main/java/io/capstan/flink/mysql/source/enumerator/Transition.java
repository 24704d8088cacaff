package io.capstan.flink.mysql.source.enumerator;

/**
 * What an event did to the enumerator's state: the state after it and the event's result (a reply,
 * an answer, whether something became possible).
 */
record Transition<T>(EnumeratorState next, T result) {

    static <T> Transition<T> stay(EnumeratorState state, T result) {
        return new Transition<>(state, result);
    }
}
