package io.capstan.flink.mysql.event;

import org.apache.flink.annotation.PublicEvolving;

/** What a change event did to its row. */
@PublicEvolving
public enum Operation {
    /** A row read by the snapshot (emitted as an insert). */
    READ("r"),
    INSERT("c"),
    UPDATE("u"),
    DELETE("d");

    private final String debeziumCode;

    Operation(String debeziumCode) {
        this.debeziumCode = debeziumCode;
    }

    /** The Debezium envelope's {@code op} letter. */
    public String debeziumCode() {
        return debeziumCode;
    }
}
