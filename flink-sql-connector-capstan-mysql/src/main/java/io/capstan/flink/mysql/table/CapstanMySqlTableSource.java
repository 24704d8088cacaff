package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.convert.SpatialValueForm;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The scan side of a {@code capstan-mysql} table: a changelog (+I, -U, +U, -D; insert-only in
 * {@code snapshot} mode and with {@code scan.read-changelog-as-append-only.enabled}) of the
 * projected columns and the requested metadata columns.
 *
 * <p>It hands the planner a {@link DataStreamScanProvider} rather than a {@code SourceProvider} so
 * that the source operator gets a name we choose (the table and patterns, never options) and the
 * planner-generated uid ({@link ProviderContext#generateUid}), which keeps the source's state
 * addressable across restarts from a savepoint when the plan is compiled or uids are always
 * generated ({@code table.exec.uid.generation}).
 */
@Internal
public final class CapstanMySqlTableSource
        implements ScanTableSource, SupportsReadingMetadata, SupportsProjectionPushDown {

    private final MySqlTableDefinition config;
    private final String tableName;
    private final DeclaredValueSettings settings;

    /** {@code scan.read-changelog-as-append-only.enabled}: every change an appended +I row. */
    private final boolean appendOnly;

    /** The physical columns produced, after projection push-down. */
    private DataType physicalDataType;

    /** The metadata columns produced after the physical ones, in this order. */
    private List<MetadataColumn> metadata = List.of();

    /** Physical plus metadata columns; what the planner expects the source to produce. */
    private DataType producedDataType;

    CapstanMySqlTableSource(
            MySqlTableDefinition config,
            DataType physicalDataType,
            String tableName,
            DeclaredValueSettings settings) {
        this(config, physicalDataType, tableName, settings, false);
    }

    CapstanMySqlTableSource(
            MySqlTableDefinition config,
            DataType physicalDataType,
            String tableName,
            DeclaredValueSettings settings,
            boolean appendOnly) {
        this.appendOnly = appendOnly;
        this.config = Objects.requireNonNull(config);
        this.settings = Objects.requireNonNull(settings);
        this.physicalDataType = Objects.requireNonNull(physicalDataType);
        this.producedDataType = physicalDataType;
        this.tableName = Objects.requireNonNull(tableName);
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return config.startupMode() == StartupMode.SNAPSHOT || appendOnly
                ? ChangelogMode.insertOnly()
                : ChangelogMode.all();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        TypeInformation<RowData> producedType = context.createTypeInformation(producedDataType);
        Source<RowData, ?, ?> source = createSource(producedType);
        boolean bounded = config.startupMode() == StartupMode.SNAPSHOT;
        String operatorName = "capstan-mysql[" + tableName + "]";

        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext providerContext, StreamExecutionEnvironment env) {
                DataStreamSource<RowData> stream =
                        env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                operatorName,
                                producedType);
                providerContext.generateUid("capstan-mysql-source").ifPresent(stream::uid);
                return stream;
            }

            @Override
            public boolean isBounded() {
                return bounded;
            }
        };
    }

    /**
     * The DataStream source of the projected columns: they are all the snapshot SELECT reads
     * (besides the chunk key), and all the deserializer converts. Spatial values come with MySQL's
     * SRID prefix, which the deserializer prints ({@code STRING}) or drops ({@code BYTES}).
     */
    CapstanMySqlSource<RowData> createSource(TypeInformation<RowData> producedType) {
        RowType physical = (RowType) physicalDataType.getLogicalType();
        ChangelogRowDeserializer deserializer =
                new ChangelogRowDeserializer(
                        producedType, physical, metadata, settings, appendOnly);
        return CapstanMySqlSource.of(
                config.source()
                        .withSnapshotColumns(physical.getFieldNames())
                        .withSpatialForm(SpatialValueForm.MYSQL_INTERNAL),
                deserializer);
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return MetadataColumn.readable(settings.opTsNotNull(), settings.opTsEpoch());
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        List<MetadataColumn> columns = new ArrayList<>();
        for (String key : metadataKeys) {
            columns.add(
                    MetadataColumn.ofKey(key, settings.opTsNotNull(), settings.opTsEpoch())
                            .orElseThrow(
                                    () ->
                                            new ValidationException(
                                                    "Unknown metadata key '"
                                                            + key
                                                            + "'. Valid keys are "
                                                            + MetadataColumn.readable(false)
                                                                    .keySet()
                                                            + ".")));
        }
        this.metadata = List.copyOf(columns);
        this.producedDataType = producedDataType;
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        // Called before applyReadableMetadata: producedDataType holds only physical columns here.
        this.physicalDataType = producedDataType;
        this.producedDataType = producedDataType;
    }

    @Override
    public DynamicTableSource copy() {
        CapstanMySqlTableSource copy =
                new CapstanMySqlTableSource(
                        config, physicalDataType, tableName, settings, appendOnly);
        copy.metadata = metadata;
        copy.producedDataType = producedDataType;
        return copy;
    }

    /** Printed in plans: names only, never options (the password must not appear anywhere). */
    @Override
    public String asSummaryString() {
        return "capstan-mysql";
    }

    MySqlTableDefinition config() {
        return config;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CapstanMySqlTableSource)) {
            return false;
        }
        CapstanMySqlTableSource that = (CapstanMySqlTableSource) o;
        return config.equals(that.config)
                && tableName.equals(that.tableName)
                && settings.equals(that.settings)
                && appendOnly == that.appendOnly
                && physicalDataType.equals(that.physicalDataType)
                && metadata.equals(that.metadata)
                && producedDataType.equals(that.producedDataType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(config, tableName, physicalDataType, metadata, settings, appendOnly);
    }

    @Override
    public String toString() {
        return "CapstanMySqlTableSource{" + tableName + ", " + config + "}";
    }
}
