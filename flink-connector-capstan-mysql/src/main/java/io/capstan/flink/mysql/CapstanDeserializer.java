package io.capstan.flink.mysql;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

import java.io.Serializable;

/**
 * Turns a {@link ChangeEvent} into zero or more records of the job's type {@code T}.
 *
 * <p>Called on the source task's thread, once per row change. Everything collected in one call is
 * emitted atomically with respect to checkpoints. Do not keep references to the event's rows beyond
 * the call. Implementations are serialized into the job graph: keep them small, build per-schema
 * helpers lazily, and never log row values.
 */
@PublicEvolving
public interface CapstanDeserializer<T> extends Serializable {

    /** The type of the records this deserializer produces. */
    TypeInformation<T> getProducedType();

    /** Emits the records for one change. */
    void deserialize(ChangeEvent event, Collector<T> out) throws Exception;
}
