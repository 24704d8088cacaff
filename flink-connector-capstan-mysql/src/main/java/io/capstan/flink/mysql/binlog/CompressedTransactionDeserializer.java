package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.convert.TransactionPayloads;

import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;

/**
 * Decompresses a TRANSACTION_PAYLOAD event (MySQL 8.0.20+, {@code
 * binlog_transaction_compression=ON}) and hands back a {@link CompressedTransaction} whose inner
 * events are decoded lazily by {@code inner}: the streamer's own event deserializer configuration
 * (row cells as the converters expect, rows of uncaptured tables skipped), without checksums as
 * MySQL writes them inside a payload.
 */
final class CompressedTransactionDeserializer
        implements EventDataDeserializer<CompressedTransaction> {

    private final EventDeserializer inner;

    CompressedTransactionDeserializer(EventDeserializer inner) {
        this.inner = inner;
    }

    @Override
    public CompressedTransaction deserialize(ByteArrayInputStream in) throws IOException {
        TransactionPayloadEventData header = new TransactionPayloadEventData();
        byte[] events = TransactionPayloads.readEvents(in, header);
        CompressedTransaction data =
                new CompressedTransaction(new ByteArrayInputStream(events), inner);
        data.setPayloadSize(header.getPayloadSize());
        data.setCompressionType(header.getCompressionType());
        data.setUncompressedSize(header.getUncompressedSize());
        return data;
    }
}
