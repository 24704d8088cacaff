package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.snapshot.key.KeyTuple;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

/**
 * The keys of a row change's images with the server's weights of their collated columns, fetched
 * before the change reaches the gate (a row carries only the text). Only for a table whose key
 * needs weights, and only while it is gated.
 *
 * @param before the key of the before image (UPDATE, DELETE), else null
 * @param after the key of the after image (INSERT, UPDATE), else null
 */
@Internal
public record GateKeys(@Nullable KeyTuple before, @Nullable KeyTuple after) {

    /** The key tuples' arity only (the no-values rule). */
    @Override
    public String toString() {
        return "GateKeys{before=" + (before != null) + ", after=" + (after != null) + "}";
    }
}
