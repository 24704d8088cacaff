package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.gtid.GtidSet;

import java.util.Objects;

/**
 * A read view opened at its exact position: G, and the table's definition as the view sees it
 * (compared by the schema check). {@link #toString()} leaves out the definition (DDL text).
 */
record ReadView(GtidSet gtidSet, String definition) {

    ReadView {
        Objects.requireNonNull(gtidSet, "gtidSet");
        Objects.requireNonNull(definition, "definition");
    }

    @Override
    public String toString() {
        return "ReadView{gtidSet=" + gtidSet + "}";
    }
}
