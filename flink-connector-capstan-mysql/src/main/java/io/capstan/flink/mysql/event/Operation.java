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
    TRUNCATE("t"),
    /**
     * A DDL statement changed the table (emitted only when the DataStream builder's {@code
     * includeSchemaChanges(true)} is set); the event carries no row images, its {@code schema()} is
     * the table's columns right after the statement (null when they cannot be known exactly) and
     * {@code schemaChangeKind()} says which kind of statement it was. Debezium writes such changes
     * in a shape of their own, not as an envelope: {@link #debeziumCode()} is {@code null}.
     */
    SCHEMA_CHANGE(null);

    private final String debeziumCode;

    Operation(String debeziumCode) {
        this.debeziumCode = debeziumCode;
    }

    /** The Debezium envelope's {@code op} letter; null for {@link #SCHEMA_CHANGE}. */
    public String debeziumCode() {
        return debeziumCode;
    }
}
