package io.capstan.flink.mysql;

import io.capstan.flink.mysql.proxy.server.ServerProxies;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.enumerator.CapstanEnumerator;
import io.capstan.flink.mysql.source.enumerator.EnumState;
import io.capstan.flink.mysql.source.enumerator.EnumStateSerializer;
import io.capstan.flink.mysql.source.enumerator.JdbcBinlogSplitPlanner;
import io.capstan.flink.mysql.source.enumerator.JdbcSnapshotPlanning;
import io.capstan.flink.mysql.source.reader.CapstanSourceReader;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.CapstanSplitSerializer;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.util.Objects;

/**
 * An exactly-once change stream of MySQL tables for Flink's DataStream API.
 *
 * <pre>{@code
 * CapstanMySqlSource<String> source = CapstanMySqlSource.<String>builder()
 *         .hostname("db.example.com").port(3306)
 *         .username("capstan").password(secret)
 *         .tableList("shop.orders", "shop.order_line_.*")
 *         .serverId(5401)
 *         .startupOptions(StartupOptions.initial()) // snapshot, then the binlog
 *         .deserializer(new JsonDebeziumDeserializer())
 *         .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").uid("orders-cdc");
 * }</pre>
 *
 * <p>Immutable; see docs/datastream.md for every option.
 */
@PublicEvolving
public final class CapstanMySqlSource<T>
        implements Source<T, CapstanSplit, EnumState>, ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final CapstanSourceConfig config;
    private final CapstanDeserializer<T> deserializer;

    CapstanMySqlSource(CapstanSourceConfig config, CapstanDeserializer<T> deserializer) {
        this.config = config;
        this.deserializer = deserializer;
    }

    public static <T> CapstanMySqlSourceBuilder<T> builder() {
        return new CapstanMySqlSourceBuilder<>();
    }

    /**
     * A source of a configuration {@link CapstanSourceConfig#validate} made: the SQL connector's
     * path, which validates the table's options when the query is planned.
     */
    public static <T> CapstanMySqlSource<T> of(
            CapstanSourceConfig config, CapstanDeserializer<T> deserializer) {
        return new CapstanMySqlSource<>(
                Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(deserializer, "deserializer"));
    }

    /** The validated configuration (its toString masks the password). */
    public CapstanSourceConfig config() {
        return config;
    }

    @Override
    public Boundedness getBoundedness() {
        return config.startupOptions().mode().isBounded()
                ? Boundedness.BOUNDED
                : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<T, CapstanSplit> createReader(SourceReaderContext readerContext) {
        return CapstanSourceReader.create(
                config, new ServerProxies(config), deserializer, readerContext);
    }

    @Override
    public SplitEnumerator<CapstanSplit, EnumState> createEnumerator(
            SplitEnumeratorContext<CapstanSplit> enumContext) {
        return enumerator(enumContext, EnumState.initial());
    }

    @Override
    public SplitEnumerator<CapstanSplit, EnumState> restoreEnumerator(
            SplitEnumeratorContext<CapstanSplit> enumContext, EnumState checkpoint) {
        return enumerator(enumContext, checkpoint);
    }

    /** One enumerator for every mode; a restored job resumes in the phase its state says. */
    private SplitEnumerator<CapstanSplit, EnumState> enumerator(
            SplitEnumeratorContext<CapstanSplit> context, EnumState state) {
        ServerProxies proxies = new ServerProxies(config);
        return new CapstanEnumerator(
                context,
                config.startupOptions().mode(),
                new JdbcSnapshotPlanning(
                        config,
                        proxies.jdbc(),
                        config.snapshotServer().isPresent() ? proxies.snapshotJdbc() : null),
                new JdbcBinlogSplitPlanner(config, proxies.jdbc()),
                state,
                config.binlogRetentionCheckInterval());
    }

    @Override
    public SimpleVersionedSerializer<CapstanSplit> getSplitSerializer() {
        return CapstanSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<EnumState> getEnumeratorCheckpointSerializer() {
        return EnumStateSerializer.INSTANCE;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return deserializer.getProducedType();
    }

    @Override
    public String toString() {
        return "CapstanMySqlSource{" + config + "}";
    }
}
