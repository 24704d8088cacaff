package io.capstan.flink.mysql.binlog;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;

/**
 * Replaces the binlog library's TRANSACTION_PAYLOAD deserializer. The library would inflate the
 * whole compressed transaction into memory and decode its rows with a default deserializer whose
 * value representations differ from the ones the row converters expect, so a compressed
 * transaction (MySQL 8.0.20+ with binlog_transaction_compression=ON) halts instead, before any
 * byte of it is decompressed.
 */
final class CompressedTransactionRefusal implements EventDataDeserializer<EventData> {

    @Override
    public EventData deserialize(ByteArrayInputStream inputStream) {
        throw halt();
    }

    static CapstanHaltException halt() {
        return new CapstanHaltException(
                HaltReason.COMPRESSED_TRANSACTION_UNSUPPORTED,
                "the server streamed a compressed transaction payload (binlog_transaction_compression=ON),"
                        + " which this connector cannot decode yet. Remedy: SET GLOBAL"
                        + " binlog_transaction_compression=OFF (and in the sessions of running writers), then"
                        + " restart from the last checkpoint; transactions written while compression was on"
                        + " must be re-snapshotted if they are still in the resume range.");
    }
}
