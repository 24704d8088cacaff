package io.capstan.flink.mysql.event;

import org.apache.flink.annotation.PublicEvolving;

/** What a change event did to its row. */
@PublicEvolving
public enum Operation {
    /** A row read by the snapshot (emitted as an insert). */
    READ("r"),
    INSERT("c"),
    UPDATE("u"),
    DELETE("d"),
    /**
     * Every row of the table was removed by TRUNCATE TABLE (emitted only when option {@code
     * binlog.truncate.handling} is {@code emit}); the event carries no row images and no schema.
     */
    TRUNCATE("t");

    private final String debeziumCode;

    Operation(String debeziumCode) {
        this.debeziumCode = debeziumCode;
    }

    /** The Debezium envelope's {@code op} letter. */
    public String debeziumCode() {
        return debeziumCode;
    }
}
