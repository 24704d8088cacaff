package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SslMode;
import io.capstan.flink.mysql.deserializer.JsonDebeziumDeserializer;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.configuration.Configuration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one validation: option text as a SQL table gives it and the builder's typed calls end in the
 * same configuration, defaults are the options' defaults, and each refusal names the option.
 */
class CapstanSourceConfigValidateTest {

    private static final String PASSWORD = "Pw-MARKER-31c9";
    private static final SourceDefinition SHOP =
            SourceDefinition.ofTables(List.of("shop"), List.of());

    private static Configuration text(Map<String, String> values) {
        Configuration c = new Configuration();
        c.setString(CapstanMySqlOptions.HOSTNAME.key(), "db.example.com");
        c.setString(CapstanMySqlOptions.USERNAME.key(), "capstan");
        c.setString(CapstanMySqlOptions.PASSWORD.key(), PASSWORD);
        values.forEach(c::setString);
        return c;
    }

    /** As the SQL connector validates: the start position from the option text too. */
    private static CapstanSourceConfig validate(
            Configuration options, SourceDefinition definition) {
        return CapstanSourceConfig.validate(
                options, definition, StartupOptions.fromOptions(options));
    }

    @Test
    void optionTextAndBuilderCallsGiveTheSameConfiguration() {
        CapstanSourceConfig fromText =
                validate(
                        text(
                                Map.ofEntries(
                                        Map.entry("port", "3307"),
                                        Map.entry("server-id", "5401"),
                                        Map.entry("scan.startup.mode", "specific-offset"),
                                        Map.entry(
                                                "scan.startup.specific-offset.gtid-set",
                                                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5"),
                                        Map.entry("scan.incremental.snapshot.chunk.size", "1"),
                                        Map.entry("scan.snapshot.fetch.size", "64"),
                                        Map.entry(
                                                "scan.incremental.snapshot.chunk.key-column",
                                                "code"),
                                        Map.entry("scan.snapshot.lock-wait.timeout", "2 s"),
                                        Map.entry("scan.snapshot.lock-wait.budget", "5 min"),
                                        Map.entry(
                                                "scan.snapshot.binlog-retention-check.interval",
                                                "20 s"),
                                        Map.entry("connect.timeout", "10 s"),
                                        Map.entry("connect.socket-timeout", "2 min"),
                                        Map.entry("connect.max-retries", "0"),
                                        Map.entry("heartbeat.interval", "5 s"),
                                        Map.entry("binlog.reconnect.backoff", "1 s"),
                                        Map.entry("binlog.reconnect.budget", "30 min"),
                                        Map.entry("binlog.queue.capacity", "16"),
                                        Map.entry("ssl.mode", "verify-ca"))),
                        SHOP);
        CapstanSourceConfig fromBuilder =
                CapstanMySqlSource.<String>builder()
                        .hostname("db.example.com")
                        .port(3307)
                        .username("capstan")
                        .password(PASSWORD)
                        .databaseList("shop")
                        .serverId(5401)
                        .startupOptions(
                                StartupOptions.gtidSet("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5"))
                        .chunkSize(1)
                        .fetchSize(64)
                        .chunkKeyColumn("code")
                        .lockWaitTimeout(Duration.ofSeconds(2))
                        .lockWaitBudget(Duration.ofMinutes(5))
                        .binlogRetentionCheckInterval(Duration.ofSeconds(20))
                        .connectTimeout(Duration.ofSeconds(10))
                        .socketTimeout(Duration.ofMinutes(2))
                        .connectMaxRetries(0)
                        .heartbeatInterval(Duration.ofSeconds(5))
                        .reconnectBackoff(Duration.ofSeconds(1))
                        .reconnectBudget(Duration.ofMinutes(30))
                        .binlogQueueCapacity(16)
                        .sslMode(SslMode.VERIFY_CA)
                        .deserializer(new JsonDebeziumDeserializer())
                        .build()
                        .config();
        assertSame(fromText, fromBuilder);
        assertThat(fromText.snapshot().chunkSize()).as("one row per chunk is allowed").isEqualTo(1);
        assertThat(fromText.connection().sslMode()).isEqualTo(SslMode.VERIFY_CA);
        assertThat(fromText.binlogRetentionCheckInterval()).isEqualTo(Duration.ofSeconds(20));
        assertThat(fromText.connection().socketTimeout()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void unsetOptionsTakeTheirDefaultsOnBothPaths() {
        CapstanSourceConfig fromText = validate(text(Map.of("server-id", "6000")), SHOP);
        CapstanSourceConfig fromBuilder =
                CapstanMySqlSource.<String>builder()
                        .hostname("db.example.com")
                        .username("capstan")
                        .password(PASSWORD)
                        .databaseList("shop")
                        .serverId(6000)
                        .deserializer(new JsonDebeziumDeserializer())
                        .build()
                        .config();
        assertSame(fromText, fromBuilder);
        // The documented defaults (datastream.md, sql.md) as literals, not the options' own.
        assertThat(fromText.connection().port()).isEqualTo(3306);
        assertThat(fromText.connection().connectTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(fromText.connection().maxRetries()).isEqualTo(3);
        assertThat(fromText.connection().heartbeatInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(fromText.connection().sslMode()).isEqualTo(SslMode.PREFERRED);
        assertThat(fromText.connection().jdbcProperties()).isEmpty();
        assertThat(fromText.connection().password()).isEqualTo(PASSWORD);
        assertThat(fromText.startupOptions()).isEqualTo(StartupOptions.initial());
        assertThat(fromText.binlogQueueCapacity()).isEqualTo(8192);
        assertThat(fromText.reconnectBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(fromText.reconnectBudget()).isEqualTo(Duration.ofMinutes(10));
        assertThat(fromText.binlogRetentionCheckInterval()).isEqualTo(Duration.ofMinutes(3));
        assertThat(fromText.snapshot().chunkSize()).isEqualTo(8096);
        assertThat(fromText.snapshot().readOptions().fetchSize()).isZero();
        assertThat(fromText.snapshot().readOptions().lockWaitTimeout())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(fromText.snapshot().readOptions().lockWaitBudget())
                .isEqualTo(Duration.ofSeconds(60));
        assertThat(fromText.snapshot().readOptions().columns()).isEmpty();
        assertThat(fromText.snapshot().chunkKeyColumnForAllTables()).isEmpty();
        assertThat(fromText.snapshot().chunkKeyColumn(TableId.of("shop", "orders"))).isEmpty();
    }

    private static void assertSame(CapstanSourceConfig a, CapstanSourceConfig b) {
        assertThat(a.connection()).isEqualTo(b.connection());
        assertThat(a.tables()).isEqualTo(b.tables());
        assertThat(a.serverId()).isEqualTo(b.serverId());
        assertThat(a.startupOptions()).isEqualTo(b.startupOptions());
        assertThat(a.binlogQueueCapacity()).isEqualTo(b.binlogQueueCapacity());
        assertThat(a.reconnectBackoff()).isEqualTo(b.reconnectBackoff());
        assertThat(a.reconnectBudget()).isEqualTo(b.reconnectBudget());
        assertThat(a.snapshot()).isEqualTo(b.snapshot());
        assertThat(a.binlogRetentionCheckInterval()).isEqualTo(b.binlogRetentionCheckInterval());
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    }

    @Test
    void newlyAddedTablesNeedScanModeInitialOnBothPaths() {
        CapstanSourceConfig on =
                validate(
                        text(
                                Map.of(
                                        "server-id", "5401",
                                        "scan.newly-added-table.enabled", "true")),
                        SHOP);
        assertThat(on.newlyAddedTables()).isTrue();
        assertThat(validate(text(Map.of("server-id", "5401")), SHOP).newlyAddedTables()).isFalse();
        assertThatThrownBy(
                        () ->
                                validate(
                                        text(
                                                Map.of(
                                                        "scan.startup.mode", "latest-offset",
                                                        "scan.newly-added-table.enabled", "true")),
                                        SHOP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scan.newly-added-table.enabled")
                .hasMessageContaining("'latest-offset'");
        assertThatThrownBy(
                        () ->
                                CapstanMySqlSource.<String>builder()
                                        .hostname("db.example.com")
                                        .username("capstan")
                                        .password(PASSWORD)
                                        .databaseList("shop")
                                        .startupOptions(StartupOptions.snapshot())
                                        .scanNewlyAddedTableEnabled(true)
                                        .deserializer(new JsonDebeziumDeserializer())
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'snapshot'");
    }

    @Test
    void configurationsCompareByValue() {
        Map<String, String> base = Map.of("server-id", "5401");
        CapstanSourceConfig one = validate(text(base), SHOP);
        CapstanSourceConfig two = validate(text(base), SHOP);
        assertThat(one).isNotSameAs(two).isEqualTo(two).hasSameHashCodeAs(two);

        Map<String, String> changes =
                Map.ofEntries(
                        Map.entry("hostname", "db2.example.com"),
                        Map.entry("port", "3307"),
                        Map.entry("password", "other"),
                        Map.entry("server-id", "5402"),
                        Map.entry("scan.startup.mode", "latest-offset"),
                        Map.entry("scan.incremental.snapshot.chunk.size", "1"),
                        Map.entry("scan.snapshot.fetch.size", "64"),
                        Map.entry("scan.incremental.snapshot.chunk.key-column", "code"),
                        Map.entry("scan.snapshot.lock-wait.timeout", "2 s"),
                        Map.entry("scan.snapshot.lock-wait.budget", "5 min"),
                        Map.entry("connect.timeout", "10 s"),
                        Map.entry("ssl.mode", "required"),
                        Map.entry("binlog.reconnect.backoff", "1 s"),
                        Map.entry("binlog.reconnect.budget", "30 min"),
                        Map.entry("binlog.queue.capacity", "16"),
                        Map.entry("scan.newly-added-table.enabled", "true"));
        changes.forEach(
                (key, value) -> {
                    Configuration changed = text(base);
                    changed.setString(key, value);
                    assertThat(validate(changed, SHOP)).as(key).isNotEqualTo(one);
                });
        for (SourceDefinition other :
                List.of(
                        SourceDefinition.ofTables(List.of("shop2"), List.of()),
                        new SourceDefinition(
                                List.of("shop"), List.of(), Map.of("shop.t", "id"), null, Map.of()),
                        new SourceDefinition(
                                List.of("shop"), List.of(), Map.of(), List.of("id"), Map.of()),
                        new SourceDefinition(
                                List.of("shop"),
                                List.of(),
                                Map.of(),
                                null,
                                Map.of("socketTimeout", "1")))) {
            assertThat(validate(text(base), other)).as(other.toString()).isNotEqualTo(one);
        }

        // Snapshot column names compare case-insensitively, as the snapshot reads them.
        CapstanSourceConfig upper = one.withSnapshotColumns(List.of("ID", "Name"));
        assertThat(two.withSnapshotColumns(List.of("id", "name")))
                .isEqualTo(upper)
                .hasSameHashCodeAs(upper);
        assertThat(two.withSnapshotColumns(List.of("id"))).isNotEqualTo(upper);
        assertThat(upper).isNotEqualTo(one);
    }

    @ParameterizedTest(name = "{0} = ''{1}''")
    @CsvSource(
            delimiter = ';',
            value = {
                "port; 0; 'port': it must be in 1..65535",
                "server-id; 0; 'server-id': ids must be in 1..4294967295",
                "server-id; 54x0; '5400-5408'",
                "server-id; 5408-5400; the range end is below its start",
                "scan.startup.mode; latest; Valid values are 'initial', 'snapshot', 'latest-offset'",
                "scan.startup.mode; specific-offset; requires option 'scan.startup.specific-offset.gtid-set'",
                "scan.startup.timestamp-millis; 5; 'scan.startup.timestamp-millis' applies only to scan.startup.mode 'timestamp'",
                "scan.incremental.snapshot.chunk.size; 0; 'scan.incremental.snapshot.chunk.size': it must be at least 1",
                "scan.snapshot.fetch.size; -1; 'scan.snapshot.fetch.size': it must be 0 (stream the rows",
                "scan.incremental.snapshot.chunk.key-column; ' '; 'scan.incremental.snapshot.chunk.key-column': it must name a column",
                "scan.snapshot.lock-wait.timeout; 500 ms; 'scan.snapshot.lock-wait.timeout': it must be at least 1 s",
                "scan.snapshot.lock-wait.budget; 0 s; 'scan.snapshot.lock-wait.budget': it must be a positive duration",
                "scan.snapshot.binlog-retention-check.interval; 0 s; 'scan.snapshot.binlog-retention-check.interval': it must be a positive duration",
                "connect.timeout; 0 s; 'connect.timeout': it must be a positive duration",
                "connect.socket-timeout; 0 s; 'connect.socket-timeout': it must be a positive duration",
                "connect.max-retries; -1; 'connect.max-retries': it must be >= 0",
                "heartbeat.interval; 0 s; 'heartbeat.interval'",
                "binlog.reconnect.backoff; 0 s; 'binlog.reconnect.backoff'",
                "binlog.reconnect.budget; 0 s; 'binlog.reconnect.budget'",
                "binlog.queue.capacity; 15; 'binlog.queue.capacity': it must be >= 16",
                "ssl.mode; on; 'disabled', 'preferred', 'required', 'verify-ca', 'verify-identity'",
                "hostname; ' '; 'hostname': it is empty",
                "scan.snapshot.hostname; ' '; 'scan.snapshot.hostname': it is empty",
                "scan.snapshot.port; 3307; 'scan.snapshot.port': it is set without 'scan.snapshot.hostname'",
                "username; ' '; 'username': it is empty",
            })
    void eachRefusalNamesTheOptionAndWhatIsValid(String key, String value, String message) {
        assertThatThrownBy(() -> validate(text(Map.of(key, value)), SHOP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void theSnapshotServerTakesTheMainAccountTlsAndPortUnlessItsPortIsSet() {
        CapstanSourceConfig fromText =
                validate(
                        text(
                                Map.of(
                                        "port", "3307",
                                        "ssl.mode", "required",
                                        "server-id", "5401",
                                        "scan.snapshot.hostname", " replica.example.com ")),
                        SHOP);
        CapstanSourceConfig fromBuilder =
                CapstanMySqlSource.<String>builder()
                        .hostname("db.example.com")
                        .port(3307)
                        .username("capstan")
                        .password(PASSWORD)
                        .databaseList("shop")
                        .serverId(5401)
                        .sslMode(SslMode.REQUIRED)
                        .snapshotServer("replica.example.com", 3307)
                        .deserializer(new JsonDebeziumDeserializer())
                        .build()
                        .config();
        assertSame(fromText, fromBuilder);
        MySqlConnectionConfig replica = fromText.snapshotConnection().orElseThrow();
        assertThat(replica.address()).isEqualTo("replica.example.com:3307");
        assertThat(replica.username()).isEqualTo("capstan");
        assertThat(replica.password()).isEqualTo(PASSWORD);
        assertThat(replica.sslMode()).isEqualTo(SslMode.REQUIRED);
        assertThat(fromText.connection().address()).isEqualTo("db.example.com:3307");
        assertThat(fromText.toString())
                .contains("snapshotServer=replica.example.com:3307")
                .doesNotContain(PASSWORD);
        // carried through the copies the SQL connector and the builder make
        assertThat(fromText.withSnapshotColumns(List.of("id")).snapshotServer())
                .contains(new SnapshotServer("replica.example.com", 3307));

        CapstanSourceConfig otherPort =
                validate(
                        text(
                                Map.of(
                                        "port", "3307",
                                        "ssl.mode", "required",
                                        "server-id", "5401",
                                        "scan.snapshot.hostname", "replica.example.com",
                                        "scan.snapshot.port", "3308")),
                        SHOP);
        assertThat(otherPort.snapshotConnection().orElseThrow().address())
                .isEqualTo("replica.example.com:3308");
        assertThat(otherPort).isNotEqualTo(fromText);

        CapstanSourceConfig none =
                validate(
                        text(Map.of("port", "3307", "ssl.mode", "required", "server-id", "5401")),
                        SHOP);
        assertThat(none.snapshotConnection()).isEmpty();
        assertThat(none).isNotEqualTo(fromText);
    }

    @Test
    void theLockWaitBudgetMustCoverOneAttempt() {
        assertThatThrownBy(
                        () ->
                                validate(
                                        text(
                                                Map.of(
                                                        "scan.snapshot.lock-wait.timeout",
                                                        "5 s",
                                                        "scan.snapshot.lock-wait.budget",
                                                        "2 s")),
                                        SHOP))
                .hasMessageContaining(
                        "'scan.snapshot.lock-wait.budget': it must be at least"
                                + " 'scan.snapshot.lock-wait.timeout'");
    }

    @Test
    void definitionPartsAreCheckedByTheSameValidation() {
        assertThatThrownBy(
                        () ->
                                validate(
                                        text(Map.of()),
                                        new SourceDefinition(
                                                List.of("shop"),
                                                List.of(),
                                                Map.of(),
                                                null,
                                                Map.of("serverTimezone", "UTC"))))
                .hasMessageContaining(
                        "'jdbc.properties.serverTimezone' is not allowed: capstan sets it");
        assertThatThrownBy(
                        () ->
                                validate(
                                        text(Map.of()),
                                        new SourceDefinition(
                                                List.of("shop"),
                                                List.of(),
                                                Map.of("orders", "id"),
                                                null,
                                                Map.of())))
                .hasMessageContaining(
                        "'scan.incremental.snapshot.chunk.key-column' of table 'orders'")
                .hasMessageContaining("'database.table'");
        assertThatThrownBy(
                        () ->
                                validate(
                                        text(Map.of()),
                                        SourceDefinition.ofTables(List.of(), List.of())))
                .hasMessageContaining("databaseList/tableList");
        assertThatThrownBy(
                        () ->
                                validate(
                                        text(Map.of()),
                                        new SourceDefinition(
                                                List.of("shop"),
                                                List.of(),
                                                Map.of(),
                                                List.of("id", " "),
                                                Map.of())))
                .hasMessageContaining("snapshotColumns");
        CapstanSourceConfig c =
                validate(
                        text(Map.of()),
                        new SourceDefinition(
                                List.of("shop"),
                                List.of(),
                                Map.of("shop.orders", " order_no "),
                                null,
                                Map.of()));
        assertThat(c.snapshot().chunkKeyColumn(TableId.of("shop", "orders"))).contains("order_no");
    }

    private static SourceDefinition withDriverProperty(String key, String value) {
        return new SourceDefinition(List.of("shop"), List.of(), Map.of(), null, Map.of(key, value));
    }

    /**
     * mysql-cdc users bound a silent socket with the driver's {@code socketTimeout} (ms): it
     * becomes {@code connect.socket-timeout}, so that the locking connection's longer minimum still
     * applies.
     */
    @Test
    void aDriverSocketTimeoutBecomesTheSocketTimeoutOption() {
        CapstanSourceConfig c =
                validate(text(Map.of()), withDriverProperty("socketTimeout", "90000"));
        assertThat(c.connection().socketTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.connection().jdbcProperties()).doesNotContainKey("socketTimeout");
        assertThatThrownBy(
                        () ->
                                validate(
                                        text(Map.of("connect.socket-timeout", "2 min")),
                                        withDriverProperty("socketTimeout", "90000")))
                .hasMessageContaining("'jdbc.properties.socketTimeout'")
                .hasMessageContaining("set only that option");
        for (String bad : List.of("0", "-5", "1 min")) {
            assertThatThrownBy(
                            () ->
                                    validate(
                                            text(Map.of()),
                                            withDriverProperty("socketTimeout", bad)))
                    .as(bad)
                    .hasMessageContaining("positive number of milliseconds");
        }
    }

    @Test
    void aMissingHostOrUserIsNamed() {
        Configuration c = text(Map.of());
        c.removeConfig(CapstanMySqlOptions.HOSTNAME);
        assertThatThrownBy(() -> validate(c, SHOP))
                .hasMessageContaining("Option 'hostname' is required");
    }

    @Test
    void anUnsetServerIdIsDrawnFromTheDocumentedRange() {
        for (int i = 0; i < 50; i++) {
            assertThat(validate(text(Map.of()), SHOP).serverId()).isBetween(5400L, 6399L);
        }
    }
}
