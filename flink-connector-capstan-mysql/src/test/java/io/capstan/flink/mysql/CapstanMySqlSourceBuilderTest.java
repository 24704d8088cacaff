package io.capstan.flink.mysql;

import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.deserializer.RowDataDeserializer;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CapstanMySqlSourceBuilderTest {

    private static CapstanMySqlSourceBuilder<String> valid() {
        return CapstanMySqlSource.<String>builder()
                .hostname("db.example.com")
                .username("capstan")
                .password("s3cr3t-pw")
                .tableList("shop.orders")
                .serverId(5401)
                .startupOptions(StartupOptions.latest())
                .deserializer(new JsonDebeziumDeserializer());
    }

    private static void fails(
            UnaryOperator<CapstanMySqlSourceBuilder<String>> change, String message) {
        assertThatThrownBy(() -> change.apply(valid()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageNotContaining("s3cr3t-pw");
    }

    @Test
    void aValidBuildIsContinuousAndNeverPrintsThePassword() {
        CapstanMySqlSource<String> source = valid().build();
        assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(source.config().serverId()).isEqualTo(5401);
        assertThat(source.config().connection().port()).isEqualTo(3306);
        assertThat(source.toString()).doesNotContain("s3cr3t-pw").contains("shop.orders");
        assertThat(source.getProducedType().getTypeClass()).isEqualTo(String.class);
    }

    @Test
    void eachInvalidOptionIsNamed() {
        fails(b -> b.hostname(" "), "hostname");
        fails(b -> b.port(0), "port");
        fails(b -> b.username(null), "username");
        fails(b -> b.deserializer(null), "deserializer");
        fails(b -> b.serverId(0), "'server-id': ids must be in 1..4294967295");
        fails(b -> b.serverId(1L << 32), "'server-id'");
        fails(
                b -> b.connectTimeout(Duration.ZERO),
                "'connect.timeout': it must be a positive duration");
        fails(b -> b.connectMaxRetries(-1), "'connect.max-retries': it must be >= 0");
        fails(b -> b.sslMode(null), "'ssl.mode'");
        fails(b -> b.heartbeatInterval(Duration.ofSeconds(-1)), "'heartbeat.interval'");
        fails(b -> b.binlogQueueCapacity(1), "'binlog.queue.capacity': it must be >= 16");
        fails(b -> b.reconnectBudget(Duration.ZERO), "'binlog.reconnect.budget'");
        fails(b -> b.jdbcProperty("password", "x"), "'jdbc.properties.password' is not allowed");
        // The same list as SQL's jdbc.properties.*: values must read alike in snapshot and binlog.
        fails(
                b -> b.jdbcProperty("serverTimezone", "Europe/Paris"),
                "'jdbc.properties.serverTimezone' is not allowed: capstan sets it");
        fails(
                b -> b.jdbcProperty("ZERODATETIMEBEHAVIOR", "EXCEPTION"),
                "'jdbc.properties.ZERODATETIMEBEHAVIOR'");
        fails(b -> b.jdbcProperty("useSSL", "false"), "sslMode()");
        fails(b -> b.tableList("orders"), "tableList");
        fails(b -> b.tableList("shop.(unclosed"), "tableList");
        fails(b -> b.databaseList("[bad"), "databaseList");
    }

    @Test
    void tablesAreRequired() {
        assertThatThrownBy(
                        () ->
                                CapstanMySqlSource.<String>builder()
                                        .hostname("h")
                                        .username("u")
                                        .startupOptions(StartupOptions.latest())
                                        .deserializer(new JsonDebeziumDeserializer())
                                        .build())
                .hasMessageContaining("databaseList/tableList");
    }

    @Test
    void snapshotOptionsAreValidatedAndNamed() {
        fails(b -> b.chunkSize(0), "'scan.incremental.snapshot.chunk.size': it must be at least 1");
        fails(b -> b.fetchSize(-1), "'scan.snapshot.fetch.size'");
        fails(
                b -> b.lockWaitTimeout(Duration.ofMillis(500)),
                "'scan.snapshot.lock-wait.timeout': it must be at least 1 s");
        fails(b -> b.lockWaitBudget(Duration.ZERO), "'scan.snapshot.lock-wait.budget'");
        fails(b -> b.chunkKeyColumn("orders", "id"), "database.table");
        fails(b -> b.chunkKeyColumn(" "), "'scan.incremental.snapshot.chunk.key-column'");
        CapstanMySqlSource<String> s =
                CapstanMySqlSource.<String>builder()
                        .hostname("h")
                        .username("u")
                        .databaseList("shop")
                        .deserializer(new JsonDebeziumDeserializer())
                        .chunkKeyColumn("code")
                        .chunkKeyColumn("shop.orders", "order_no")
                        .build();
        assertThat(s.config().startupOptions()).isEqualTo(StartupOptions.initial());
        assertThat(s.config().snapshot().chunkKeyColumn(TableId.of("shop", "orders")))
                .contains("order_no");
        assertThat(s.config().snapshot().chunkKeyColumn(TableId.of("shop", "x"))).contains("code");
        assertThat(s.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    }

    /** RowData cannot express a TRUNCATE: 'emit' with it is refused at build, not hours later. */
    @Test
    void emitWithRowDataDeserializerIsRefusedAtBuild() {
        assertThatThrownBy(
                        () ->
                                CapstanMySqlSource.<RowData>builder()
                                        .hostname("h")
                                        .username("u")
                                        .databaseList("shop")
                                        .deserializer(
                                                new RowDataDeserializer(
                                                        new GenericTypeInfo<>(RowData.class)))
                                        .truncateHandling(TruncateHandling.EMIT)
                                        .build())
                .hasMessageContaining("'binlog.truncate.handling'")
                .hasMessageContaining("JsonDebeziumDeserializer");
        assertThat(
                        CapstanMySqlSource.<String>builder()
                                .hostname("h")
                                .username("u")
                                .databaseList("shop")
                                .deserializer(new JsonDebeziumDeserializer())
                                .truncateHandling(TruncateHandling.EMIT)
                                .build()
                                .config()
                                .truncateHandling())
                .isEqualTo(TruncateHandling.EMIT);
    }

    @Test
    void startPositionsValidateTheirArguments() {
        assertThatThrownBy(() -> StartupOptions.gtidSet("not a gtid set"))
                .hasMessageContaining("'scan.startup.specific-offset.gtid-set'")
                .hasMessageContaining("MySQL's GTID set text");
        assertThatThrownBy(() -> StartupOptions.timestamp(-1))
                .hasMessageContaining("'scan.startup.timestamp-millis'")
                .hasMessageContaining(">= 0");
        StartupOptions set = StartupOptions.gtidSet("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5");
        assertThat(set.mode()).isEqualTo(StartupMode.GTID_SET);
        assertThat(set.gtidSet().toString()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
        assertThat(StartupOptions.timestamp(5).timestampMillis()).isEqualTo(5L);
    }

    @Test
    void aMariaDbGtidPositionIsAStartSetOnItsAxes() {
        StartupOptions one = StartupOptions.gtidSet("0-1-42");
        assertThat(one.mode()).isEqualTo(StartupMode.GTID_SET);
        assertThat(one.gtidSet()).isEqualTo(MariaDbGtidAxes.ofState("0-1-42"));
        StartupOptions two = StartupOptions.gtidSet(" 0-1-42, 1-2-7 ");
        assertThat(two.gtidSet()).isEqualTo(MariaDbGtidAxes.ofState("0-1-42,1-2-7"));
        assertThat(MariaDbGtidAxes.position(two.gtidSet()).toString()).isEqualTo("0-1-42,1-2-7");
        assertThat(two).isEqualTo(StartupOptions.gtidSet("1-2-7,0-1-42"));
    }

    @Test
    void aMalformedMariaDbPositionIsRefusedNamingTheOptionAndShowingMariaDbsForm() {
        for (String text : new String[] {"0-1", "0-1-42,", "0-1-42,0-1-43", "0-1-x", "0--42"}) {
            assertThatThrownBy(() -> StartupOptions.gtidSet(text))
                    .as(text)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'scan.startup.specific-offset.gtid-set'")
                    .hasMessageContaining("domain-server-sequence")
                    .hasMessageContaining("'0-1-42'");
        }
    }

    @Test
    void theEmptyGtidSetOfAFreshServerIsAStartPosition() {
        // SELECT @@global.gtid_executed on a server that executed nothing yet prints ''.
        CapstanMySqlSource<String> source =
                valid().startupOptions(StartupOptions.gtidSet("")).build();
        assertThat(source.config().startupOptions()).isEqualTo(StartupOptions.gtidSet(""));
        assertThat(source.config().startupOptions().mode()).isEqualTo(StartupMode.GTID_SET);
        assertThat(source.config().startupOptions().gtidSet().isEmpty()).isTrue();
    }

    @Test
    void aTypedStartPositionIsTakenAsGiven() {
        StartupOptions set = StartupOptions.gtidSet("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5");
        assertThat(valid().startupOptions(set).build().config().startupOptions()).isEqualTo(set);
        assertThat(
                        valid().startupOptions(StartupOptions.timestamp(0))
                                .build()
                                .config()
                                .startupOptions())
                .isEqualTo(StartupOptions.timestamp(0));
        fails(b -> b.startupOptions(null), "'scan.startup.mode'");
    }

    @Test
    void anUnsetServerIdIsDrawnFromTheDocumentedRange() {
        long id =
                CapstanMySqlSource.<String>builder()
                        .hostname("h")
                        .username("u")
                        .databaseList("shop")
                        .startupOptions(StartupOptions.earliest())
                        .deserializer(new JsonDebeziumDeserializer())
                        .build()
                        .config()
                        .serverId();
        assertThat(id).isBetween(5400L, 6399L);
    }
}
