package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.convert.SpatialValueForm;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SnapshotOptions;
import io.capstan.flink.mysql.source.TableSelection;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.capstan.flink.mysql.table.TableFixtures.PASSWORD;
import static io.capstan.flink.mysql.table.TableFixtures.allMessages;
import static io.capstan.flink.mysql.table.TableFixtures.create;
import static io.capstan.flink.mysql.table.TableFixtures.validOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Every option problem fails at planning time with a message naming it; never the password. */
class CapstanMySqlTableFactoryTest {

    private static String failure(Consumer<Map<String, String>> change) {
        Map<String, String> options = validOptions();
        change.accept(options);
        Throwable t = catchThrowable(() -> create(options));
        assertThat(t).as("planning must fail").isNotNull();
        String messages = allMessages(t);
        assertThat(messages).doesNotContain(PASSWORD);
        return messages;
    }

    private static MySqlTableDefinition config(Consumer<Map<String, String>> change) {
        Map<String, String> options = validOptions();
        change.accept(options);
        return ((CapstanMySqlTableSource) create(options)).config();
    }

    @Test
    void tableNameMatchesWholeTableNamesOnly() {
        TableSelection single = config(o -> o.put("table-name", "orders")).source().tables();
        assertThat(single.matches(TableId.of("shop", "orders"))).isTrue();
        assertThat(single.matches(TableId.of("shop", "old_orders"))).isFalse();
        assertThat(single.matches(TableId.of("shop", "orders_2026"))).isFalse();
        TableSelection either =
                config(o -> o.put("table-name", "orders|customers")).source().tables();
        assertThat(either.matches(TableId.of("shop", "orders"))).isTrue();
        assertThat(either.matches(TableId.of("shop", "customers"))).isTrue();
        assertThat(either.matches(TableId.of("shop", "xcustomers"))).isFalse();
        TableSelection dotted = config(o -> o.put("table-name", "orders.2026")).source().tables();
        assertThat(dotted.matches(TableId.of("shop", "orders_2026")))
                .as("a regex dot is any character")
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"hostname", "username", "password", "database-name", "table-name"})
    void missingRequiredOptionIsNamed(String key) {
        assertThat(failure(o -> o.remove(key)))
                .contains("Missing required options are:")
                .contains(key);
    }

    @Test
    void unknownOptionIsNamedAndValidOnesListed() {
        assertThat(failure(o -> o.put("scan.startup.mod", "latest-offset")))
                .contains("Unsupported options")
                .contains("scan.startup.mod")
                .contains("Supported options")
                .contains("scan.startup.mode")
                .contains("scan.startup.specific-offset.gtid-set")
                .contains("server-id");
    }

    @Test
    void typedOptionsRefuseBadValuesByName() {
        assertThat(failure(o -> o.put("port", "three"))).contains("port");
        assertThat(failure(o -> o.put("port", "70000"))).contains("'port'").contains("1..65535");
        assertThat(failure(o -> o.put("connect.timeout", "soon"))).contains("connect.timeout");
        assertThat(failure(o -> o.put("connect.timeout", "0 s")))
                .contains("'connect.timeout'")
                .contains("positive duration");
        assertThat(failure(o -> o.put("connect.max-retries", "-1")))
                .contains("'connect.max-retries'");
        assertThat(failure(o -> o.put("heartbeat.interval", "0 ms")))
                .contains("'heartbeat.interval'");
        assertThat(failure(o -> o.put("hostname", " "))).contains("'hostname'");
    }

    @Test
    void startupModeListsValidValues() {
        assertThat(failure(o -> o.put("scan.startup.mode", "latest")))
                .contains("'scan.startup.mode'")
                .contains("'latest'")
                .contains(
                        "'initial', 'snapshot', 'latest-offset', 'earliest-offset', 'specific-offset', 'timestamp'");
    }

    @Test
    void specificOffsetNeedsAValidGtidSet() {
        assertThat(failure(o -> o.put("scan.startup.mode", "specific-offset")))
                .contains(
                        "'specific-offset' requires option 'scan.startup.specific-offset.gtid-set'");
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "specific-offset");
                                    o.put(
                                            "scan.startup.specific-offset.gtid-set",
                                            "not-a-gtid-set");
                                }))
                .contains("Invalid value for option 'scan.startup.specific-offset.gtid-set'");
        MySqlTableDefinition c =
                config(
                        o -> {
                            o.put("scan.startup.mode", "specific-offset");
                            o.put(
                                    "scan.startup.specific-offset.gtid-set",
                                    "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23");
                        });
        assertThat(c.startupMode()).isEqualTo(StartupMode.GTID_SET);
        assertThat(c.source().startupOptions().gtidSet().toString())
                .isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-23");
    }

    @Test
    void timestampModeNeedsNonNegativeMillis() {
        assertThat(failure(o -> o.put("scan.startup.mode", "timestamp")))
                .contains("'timestamp' requires option 'scan.startup.timestamp-millis'");
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "timestamp");
                                    o.put("scan.startup.timestamp-millis", "-5");
                                }))
                .contains("'scan.startup.timestamp-millis'")
                .contains(">= 0");
        MySqlTableDefinition c =
                config(
                        o -> {
                            o.put("scan.startup.mode", "timestamp");
                            o.put("scan.startup.timestamp-millis", "1700000000000");
                        });
        assertThat(c.source().startupOptions().timestampMillis()).isEqualTo(1700000000000L);
    }

    private static final TypeInformation<RowData> ROWS = TypeInformation.of(RowData.class);

    private static SnapshotOptions snapshotOptions(Consumer<Map<String, String>> change) {
        return ((CapstanMySqlTableSource) create(options(change)))
                .createSource(ROWS)
                .config()
                .snapshot();
    }

    private static Map<String, String> options(Consumer<Map<String, String>> change) {
        Map<String, String> options = validOptions();
        change.accept(options);
        return options;
    }

    @Test
    void snapshotModesMapToTheSourcesStartupOptions() {
        MySqlTableDefinition initial = config(o -> o.remove("scan.startup.mode"));
        assertThat(initial.startupMode()).isEqualTo(StartupMode.INITIAL);
        assertThat(initial.source().startupOptions()).isEqualTo(StartupOptions.initial());
        CapstanMySqlTableSource initialSource =
                (CapstanMySqlTableSource) create(options(o -> o.remove("scan.startup.mode")));
        assertThat(initialSource.createSource(ROWS).config().startupOptions())
                .isEqualTo(StartupOptions.initial());
        assertThat(initialSource.getChangelogMode()).isEqualTo(ChangelogMode.all());
        // spatial values with their SRID, so that STRING prints it; BYTES drops it again
        assertThat(initialSource.createSource(ROWS).config().spatialForm())
                .isEqualTo(SpatialValueForm.MYSQL_INTERNAL);
        assertThat(initial.source().spatialForm()).isEqualTo(SpatialValueForm.WKB);

        CapstanMySqlTableSource snapshot =
                (CapstanMySqlTableSource)
                        create(options(o -> o.put("scan.startup.mode", "snapshot")));
        assertThat(snapshot.createSource(ROWS).config().startupOptions())
                .isEqualTo(StartupOptions.snapshot());
        assertThat(snapshot.createSource(ROWS).getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(snapshot.getChangelogMode()).isEqualTo(ChangelogMode.insertOnly());
    }

    @Test
    void snapshotOptionsReachTheSourceBuilder() {
        SnapshotOptions s =
                snapshotOptions(
                        o -> {
                            o.put("scan.startup.mode", "initial");
                            o.put("scan.incremental.snapshot.chunk.size", "500");
                            o.put("scan.snapshot.fetch.size", "64");
                            o.put("scan.incremental.snapshot.chunk.key-column", "customer_id");
                            o.put("scan.snapshot.lock-wait.timeout", "3 s");
                            o.put("scan.snapshot.lock-wait.budget", "2 min");
                        });
        assertThat(s.chunkSize()).isEqualTo(500);
        assertThat(s.readOptions().fetchSize()).isEqualTo(64);
        assertThat(s.readOptions().lockWaitTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.readOptions().lockWaitBudget()).isEqualTo(Duration.ofMinutes(2));
        assertThat(s.chunkKeyColumn(TableId.of("shop", "orders"))).contains("customer_id");
    }

    @Test
    void theSnapshotServerOptionsReachTheSourceAndAreCheckedByName() {
        CapstanSourceConfig set =
                ((CapstanMySqlTableSource)
                                create(
                                        options(
                                                o -> {
                                                    o.put("scan.startup.mode", "initial");
                                                    o.put(
                                                            "scan.snapshot.hostname",
                                                            "replica.internal");
                                                    o.put("scan.snapshot.port", "3307");
                                                })))
                        .createSource(ROWS)
                        .config();
        assertThat(set.snapshotConnection().orElseThrow().address())
                .isEqualTo("replica.internal:3307");
        assertThat(set.snapshotConnection().orElseThrow().username())
                .isEqualTo(set.connection().username());
        CapstanSourceConfig defaults =
                ((CapstanMySqlTableSource) create(validOptions())).createSource(ROWS).config();
        assertThat(defaults.snapshotServer()).isEmpty();
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "initial");
                                    o.put("scan.snapshot.port", "3307");
                                }))
                .contains("'scan.snapshot.port'", "scan.snapshot.hostname");
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "snapshot");
                                    o.put("scan.snapshot.hostname", "replica.internal");
                                    o.put("scan.snapshot.port", "0");
                                }))
                .contains("'scan.snapshot.port'", "1..65535");
    }

    @Test
    void reconnectOptionsReachTheSourceAndDefaultAsTheDataStreamBuilder() {
        CapstanSourceConfig set =
                ((CapstanMySqlTableSource)
                                create(
                                        options(
                                                o -> {
                                                    o.put("binlog.reconnect.backoff", "2 s");
                                                    o.put("binlog.reconnect.budget", "45 min");
                                                })))
                        .createSource(ROWS)
                        .config();
        assertThat(set.reconnectBackoff()).isEqualTo(Duration.ofSeconds(2));
        assertThat(set.reconnectBudget()).isEqualTo(Duration.ofMinutes(45));
        CapstanSourceConfig defaults =
                ((CapstanMySqlTableSource) create(validOptions())).createSource(ROWS).config();
        assertThat(defaults.reconnectBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.reconnectBudget()).isEqualTo(Duration.ofMinutes(10));
        assertThat(failure(o -> o.put("binlog.reconnect.budget", "0 s")))
                .contains("'binlog.reconnect.budget'");
    }

    @Test
    void snapshotDefaultsEqualTheDataStreamDefaults() {
        SnapshotOptions sql = snapshotOptions(o -> o.put("scan.startup.mode", "snapshot"));
        SnapshotOptions dataStream = SnapshotOptions.defaults();
        assertThat(sql.chunkSize()).isEqualTo(dataStream.chunkSize()).isEqualTo(8096);
        assertThat(sql.readOptions().fetchSize())
                .isEqualTo(dataStream.readOptions().fetchSize())
                .isZero();
        assertThat(sql.readOptions().lockWaitTimeout())
                .isEqualTo(dataStream.readOptions().lockWaitTimeout())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(sql.readOptions().lockWaitBudget())
                .isEqualTo(dataStream.readOptions().lockWaitBudget())
                .isEqualTo(Duration.ofSeconds(60));
        assertThat(sql.chunkKeyColumnForAllTables()).isEmpty();
        assertThat(sql.chunkKeyColumn(TableId.of("shop", "orders"))).isEmpty();
        // besides the projected columns, only the spatial form differs (SQL prints the SRID)
        assertThat(sql)
                .isEqualTo(
                        dataStream
                                .withReadColumns(sql.readOptions().columns().get())
                                .withSpatialForm(SpatialValueForm.MYSQL_INTERNAL));
    }

    @Test
    void snapshotOptionValuesAreCheckedByName() {
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "initial");
                                    o.put("scan.snapshot.fetch.size", "-1");
                                }))
                .contains("'scan.snapshot.fetch.size'")
                .contains("0 (stream the rows");
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "initial");
                                    o.put("scan.incremental.snapshot.chunk.size", "0");
                                }))
                .contains("'scan.incremental.snapshot.chunk.size'")
                .contains("at least 1");
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "initial");
                                    o.put("scan.snapshot.lock-wait.timeout", "500 ms");
                                }))
                .contains("'scan.snapshot.lock-wait.timeout'")
                .contains("at least 1 s");
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "initial");
                                    o.put("scan.snapshot.lock-wait.timeout", "5 s");
                                    o.put("scan.snapshot.lock-wait.budget", "2 s");
                                }))
                .contains("'scan.snapshot.lock-wait.budget'")
                .contains("at least 'scan.snapshot.lock-wait.timeout'");
    }

    @Test
    void projectedColumnsAreAllTheSnapshotReads() {
        CapstanMySqlTableSource source =
                (CapstanMySqlTableSource)
                        create(options(o -> o.put("scan.startup.mode", "initial")));
        // Without push-down: every declared physical column.
        assertThat(source.createSource(ROWS).config().snapshot().readOptions().columns())
                .hasValueSatisfying(
                        c ->
                                assertThat(c)
                                        .containsExactlyInAnyOrder(
                                                "id",
                                                "customer_id",
                                                "status",
                                                "amount",
                                                "updated_at"));
        source.applyProjection(
                new int[][] {{2}, {3}},
                DataTypes.ROW(
                        DataTypes.FIELD("status", DataTypes.STRING()),
                        DataTypes.FIELD("amount", DataTypes.DECIMAL(12, 2))));
        assertThat(source.createSource(ROWS).config().snapshot().readOptions().columns())
                .hasValueSatisfying(
                        c -> assertThat(c).containsExactlyInAnyOrder("status", "amount"));
    }

    @Test
    void streamingModesMapToTheSourcesStartupOptions() {
        assertThat(
                        config(o -> o.put("scan.startup.mode", "latest-offset"))
                                .source()
                                .startupOptions())
                .isEqualTo(io.capstan.flink.mysql.StartupOptions.latest());
        assertThat(
                        config(o -> o.put("scan.startup.mode", "EARLIEST-OFFSET"))
                                .source()
                                .startupOptions())
                .isEqualTo(io.capstan.flink.mysql.StartupOptions.earliest());
        assertThat(
                        config(
                                        o -> {
                                            o.put("scan.startup.mode", "timestamp");
                                            o.put("scan.startup.timestamp-millis", "5");
                                        })
                                .source()
                                .startupOptions())
                .isEqualTo(io.capstan.flink.mysql.StartupOptions.timestamp(5));
        CapstanMySqlTableSource source = (CapstanMySqlTableSource) create(validOptions());
        assertThat(source.getChangelogMode()).isEqualTo(ChangelogMode.all());
    }

    @Test
    void serverIdAcceptsNumberOrRangeAndUsesTheFirst() {
        assertThat(config(o -> o.put("server-id", "5400")).source().serverId()).isEqualTo(5400);
        MySqlTableDefinition ranged = config(o -> o.put("server-id", "5400-5408"));
        assertThat(ranged.source().serverId()).isEqualTo(5400);
        assertThat(
                        ((CapstanMySqlTableSource)
                                        create(options(o -> o.put("server-id", "5400-5408"))))
                                .createSource(ROWS)
                                .config()
                                .serverId())
                .isEqualTo(5400L);
        assertThat(failure(o -> o.put("server-id", "54x0")))
                .contains("'server-id'")
                .contains("'5400-5408'");
        assertThat(failure(o -> o.put("server-id", "5408-5400")))
                .contains("range end is below its start");
        assertThat(failure(o -> o.put("server-id", "0"))).contains("1..4294967295");
    }

    @Test
    void sslModeListsValidValues() {
        assertThat(config(o -> o.put("ssl.mode", "verify-ca")).source().connection().sslMode())
                .isEqualTo(SslMode.VERIFY_CA);
        assertThat(config(o -> {}).source().connection().sslMode()).isEqualTo(SslMode.PREFERRED);
        assertThat(failure(o -> o.put("ssl.mode", "on")))
                .contains("'ssl.mode'")
                .contains("'disabled', 'preferred', 'required', 'verify-ca', 'verify-identity'");
    }

    @Test
    void patternsMustBeRegularExpressions() {
        assertThat(failure(o -> o.put("table-name", "orders_[0-9")))
                .contains("'table-name'")
                .contains("regular expression");
        assertThat(failure(o -> o.put("database-name", "(shop"))).contains("'database-name'");
    }

    @Test
    void serverTimeZoneIsAcceptedButChecked() {
        config(o -> o.put("server-time-zone", "Asia/Shanghai"));
        assertThat(failure(o -> o.put("server-time-zone", "Mars/Olympus")))
                .contains("'server-time-zone'")
                .contains("TIMESTAMP(p), the wall clock");
    }

    @Test
    void jdbcPropertiesPassThroughExceptThoseThatChangeValues() {
        MySqlTableDefinition c = config(o -> o.put("jdbc.properties.useCursorFetch", "true"));
        assertThat(c.source().connection().jdbcProperties())
                .containsEntry("useCursorFetch", "true");
        assertThat(failure(o -> o.put("jdbc.properties.connectionTimeZone", "Europe/Berlin")))
                .contains("'jdbc.properties.connectionTimeZone' is not allowed");
        assertThat(failure(o -> o.put("jdbc.properties.password", "x")))
                .contains("'jdbc.properties.password' is not allowed")
                .contains("'password' option");
        assertThat(failure(o -> o.put("jdbc.properties.", "x"))).contains("names no JDBC property");
    }

    @Test
    void mysqlCdcOptionsWeDoNotTakeGetARemedy() {
        assertThat(
                        failure(
                                o -> {
                                    o.put("scan.startup.mode", "specific-offset");
                                    o.put("scan.startup.specific-offset.file", "mysql-bin.000003");
                                }))
                .contains("'scan.startup.specific-offset.pos' go together");
        assertThat(failure(o -> o.put("scan.startup.specific-offset.skip-events", "3")))
                .contains(
                        "'scan.startup.specific-offset.skip-events' of mysql-cdc is not supported");
        assertThat(failure(o -> o.put("debezium.some.setting", "x")))
                .contains("'debezium.some.setting'")
                .contains("does not use Debezium");
        assertThat(failure(o -> o.put("debezium.snapshot.mode", "never")))
                .contains("'debezium.snapshot.mode' = 'never'")
                .contains("'scan.startup.mode'");
    }

    @Test
    void appendOnlyReadingMakesTheTableInsertOnly() {
        Map<String, String> o = TableFixtures.validOptions();
        assertThat(((CapstanMySqlTableSource) TableFixtures.create(o)).getChangelogMode())
                .isEqualTo(ChangelogMode.all());
        o.put("scan.read-changelog-as-append-only.enabled", "true");
        assertThat(((CapstanMySqlTableSource) TableFixtures.create(o)).getChangelogMode())
                .isEqualTo(ChangelogMode.insertOnly());
        o.put("scan.read-changelog-as-append-only.enabled", "yes");
        assertThat(catchThrowable(() -> TableFixtures.create(o)))
                .hasStackTraceContaining("scan.read-changelog-as-append-only.enabled");
    }

    @Test
    void debeziumKeysThatCannotChangeValuesAreAcceptedOrMapped() {
        assertThat(
                        config(
                                        o -> {
                                            o.put("debezium.snapshot.mode", "initial");
                                            o.put("debezium.snapshot.locking.mode", "none");
                                            o.put("debezium.database.ssl.mode", "verify_ca");
                                            o.put("debezium.heartbeat.interval.ms", "5000");
                                        })
                                .source()
                                .connection())
                .satisfies(
                        c -> {
                            assertThat(c.sslMode()).isEqualTo(SslMode.VERIFY_CA);
                            assertThat(c.heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
                        });
        assertThat(
                        failure(
                                o -> {
                                    o.put("debezium.database.ssl.mode", "required");
                                    o.put("ssl.mode", "disabled");
                                }))
                .contains("'debezium.database.ssl.mode'")
                .contains("contradicts 'ssl.mode'");
    }

    @Test
    void defaultsMatchTheDocs() {
        CapstanSourceConfig c = config(o -> {}).source();
        assertThat(c.connection().port()).isEqualTo(3306);
        assertThat(c.connection().connectTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.connection().maxRetries()).isEqualTo(3);
        assertThat(c.connection().heartbeatInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.snapshot().chunkSize()).isEqualTo(8096);
        assertThat(c.snapshot().readOptions().fetchSize()).isEqualTo(0);
        assertThat(c.snapshot().readOptions().lockWaitTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.snapshot().readOptions().lockWaitBudget()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.serverId()).as("unset: the source's random default").isBetween(5400L, 6399L);
    }

    @Test
    void sourcesFromTheSameOptionsAreEqualAndDifferWithAnOption() {
        // An unset server-id is drawn when the options are validated: set one.
        Consumer<Map<String, String>> base =
                o -> {
                    o.put("server-id", "5401");
                    o.put("scan.startup.mode", "initial");
                };
        DynamicTableSource one = create(options(base));
        DynamicTableSource two = create(options(base));
        assertThat(one).isNotSameAs(two).isEqualTo(two).hasSameHashCodeAs(two);
        assertThat(one.copy()).isEqualTo(one).hasSameHashCodeAs(one);

        Map<String, String> changes =
                Map.ofEntries(
                        Map.entry("hostname", "10.0.0.1"),
                        Map.entry("port", "3307"),
                        Map.entry("password", "other"),
                        Map.entry("server-id", "5402"),
                        Map.entry("scan.startup.mode", "snapshot"),
                        Map.entry("scan.incremental.snapshot.chunk.size", "500"),
                        Map.entry("scan.snapshot.fetch.size", "64"),
                        Map.entry("scan.incremental.snapshot.chunk.key-column", "customer_id"),
                        Map.entry("scan.snapshot.lock-wait.timeout", "2 s"),
                        Map.entry("scan.snapshot.lock-wait.budget", "5 min"),
                        Map.entry("scan.snapshot.hostname", "replica.internal"),
                        Map.entry("connect.timeout", "10 s"),
                        Map.entry("ssl.mode", "required"),
                        Map.entry("binlog.reconnect.backoff", "1 s"),
                        Map.entry("binlog.reconnect.budget", "30 min"),
                        Map.entry("jdbc.properties.socketTimeout", "600000"));
        changes.forEach(
                (key, value) ->
                        assertThat(create(options(base.andThen(o -> o.put(key, value)))))
                                .as(key)
                                .isNotEqualTo(one));
    }

    @Test
    void passwordIsAbsentFromSummaryAndStrings() {
        CapstanMySqlTableSource source = (CapstanMySqlTableSource) create(validOptions());
        assertThat(source.asSummaryString()).doesNotContain(PASSWORD);
        assertThat(source.toString()).doesNotContain(PASSWORD).contains("127.0.0.1");
        assertThat(source.config().toString()).doesNotContain(PASSWORD);
        assertThat(source.createSource(ROWS).config().toString()).doesNotContain(PASSWORD);
    }

    @Test
    void schemaProblemsFailPlanning() {
        MySqlTableShape full = TableFixtures.ordersShape("orders");
        MySqlTableShape withoutUpdatedAt =
                new MySqlTableShape(
                        full.tableId(), full.columns().subList(0, 4), full.keyColumns());
        Throwable t =
                catchThrowable(
                        () ->
                                create(
                                        validOptions(),
                                        TableFixtures.ordersSchema(),
                                        config -> List.of(withoutUpdatedAt)));
        assertThat(allMessages(t))
                .contains("'updated_at'")
                .contains("do not exist in the MySQL table")
                .doesNotContain(PASSWORD);
    }
}
