package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.CapstanDeserializer;
import io.capstan.flink.mysql.binlog.BinlogRecord;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitState;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/**
 * The source reader: one fetcher thread streams the binlog split, the task thread emits and keeps
 * the split state. Pull model: it asks the enumerator for a split when it starts.
 */
public final class CapstanSourceReader<T>
        extends SingleThreadMultiplexSourceReaderBase<BinlogRecord, T, CapstanSplit, CapstanSplitState> {

    private CapstanSourceReader(
            CapstanSourceConfig config,
            CapstanReaderMetrics metrics,
            CapstanDeserializer<T> deserializer,
            Configuration flinkConfig,
            SourceReaderContext context) {
        super(
                () ->
                        new BinlogSplitReader(
                                split -> BinlogStreamerFactory.create(config, split),
                                metrics),
                new BinlogRecordEmitter<>(deserializer, metrics),
                flinkConfig,
                context);
    }

    public static <T> CapstanSourceReader<T> create(
            CapstanSourceConfig config, CapstanDeserializer<T> deserializer, SourceReaderContext context) {
        CapstanReaderMetrics metrics = new CapstanReaderMetrics(context.metricGroup());
        return new CapstanSourceReader<>(
                config, metrics, deserializer, context.getConfiguration(), context);
    }

    @Override
    public void start() {
        context.sendSplitRequest();
    }

    @Override
    protected void onSplitFinished(Map<String, CapstanSplitState> finishedSplitIds) {
        // The binlog split never finishes; snapshot chunks will, and then the reader asks for more.
        context.sendSplitRequest();
    }

    @Override
    protected CapstanSplitState initializedState(CapstanSplit split) {
        return CapstanSplitState.of(split);
    }

    @Override
    protected CapstanSplit toSplitType(String splitId, CapstanSplitState splitState) {
        return splitState.toSplit();
    }
}
