package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.capstan.flink.mysql.binlog.StreamerFixture.config;
import static io.capstan.flink.mysql.binlog.StreamerFixture.drain;
import static io.capstan.flink.mysql.binlog.StreamerFixture.endsAtLeast;
import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The no-values rule: a stream of rows holding a marker, and a DDL whose DEFAULT holds it, with
 * DEBUG logging on for capstan and the binlog library, through a reconnect and a halt: the marker
 * appears in no log line, exception text, metric or toString().
 */
class BinlogNoValuesIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    private static final String MARKER = "ZQXMARKER8841";

    @Test
    void rowValuesNeverReachLogsExceptionsMetricsOrToString() throws Exception {
        DB.execute(
                "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(60))",
                "CREATE TABLE other (id INT PRIMARY KEY, v VARCHAR(60))");
        TableId t = TableId.of(DB.name(), "t");
        ConcurrentLinkedQueue<String> captured = new ConcurrentLinkedQueue<>();

        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        AbstractAppender appender =
                new AbstractAppender("rule1", null, null, true, Property.EMPTY_ARRAY) {
                    @Override
                    public void append(LogEvent event) {
                        captured.add(event.getMessage().getFormattedMessage());
                        if (event.getThrown() != null) {
                            captured.add(stackTrace(event.getThrown()));
                        }
                    }
                };
        appender.start();
        ctx.getConfiguration()
                .getRootLogger()
                .addAppender(appender, org.apache.logging.log4j.Level.ALL, null);
        Configurator.setLevel("io.capstan", org.apache.logging.log4j.Level.DEBUG);
        ctx.updateLoggers();
        Logger jul = Logger.getLogger("com.github.shyiko");
        Level julLevel = jul.getLevel();
        jul.setLevel(Level.ALL);
        Handler julHandler =
                new Handler() {
                    @Override
                    public void publish(LogRecord r) {
                        captured.add(String.valueOf(r.getMessage()));
                        if (r.getThrown() != null) {
                            captured.add(stackTrace(r.getThrown()));
                        }
                    }

                    @Override
                    public void flush() {}

                    @Override
                    public void close() {}
                };
        jul.addHandler(julHandler);
        try (Connection root = DB.server().openRootConnection()) {
            BinlogStartPosition start = StartPositions.latest(connectorConfig(DB));
            ConcurrentLinkedQueue<String> ddl = new ConcurrentLinkedQueue<>();
            DdlObserver observer = (db, sql, gtid) -> ddl.add(sql);
            try (BinlogStreamer s =
                    new BinlogStreamer(
                            config(connectorConfig(DB), t).xaMaxPendingRows(1).build(),
                            start,
                            observer)) {
                s.start();
                DB.execute(
                        "INSERT INTO t VALUES (1, '" + MARKER + "-a'), (2, '" + MARKER + "-b')",
                        "INSERT INTO other VALUES (1, '" + MARKER + "-c')",
                        "UPDATE t SET v = '" + MARKER + "-d' WHERE id = 1",
                        "DELETE FROM t WHERE id = 2");
                List<BinlogRecord> records = drain(s, endsAtLeast(4), Duration.ofSeconds(30));
                StreamerFixture.killDumpThreads(root, DB.server().connectorAccount().username());
                DB.execute("INSERT INTO t VALUES (3, '" + MARKER + "-e')");
                records.addAll(drain(s, endsAtLeast(1), Duration.ofSeconds(30)));
                // A DDL's text may carry values too (DEFAULT): it reaches the observer, never a
                // log.
                DB.execute(
                        "ALTER TABLE other ADD COLUMN w VARCHAR(60) DEFAULT '" + MARKER + "-ddl'");
                records.addAll(drain(s, endsAtLeast(1), Duration.ofSeconds(30)));
                assertThat(ddl).singleElement().asString().contains(MARKER + "-ddl");
                try (Statement st = root.createStatement()) {
                    st.execute("USE " + DB.name());
                    st.execute("XA START 'rule1'");
                    // Two rows held where one is allowed: the XA cap halts.
                    st.execute(
                            "INSERT INTO t VALUES (4, '"
                                    + MARKER
                                    + "-xa'), (5, '"
                                    + MARKER
                                    + "-xb')");
                    st.execute("XA END 'rule1'");
                    st.execute("XA PREPARE 'rule1'");
                    st.execute("XA COMMIT 'rule1'");
                }
                CapstanHaltException halt = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (halt == null && System.nanoTime() < deadline) {
                    try {
                        s.poll(100, TimeUnit.MILLISECONDS);
                    } catch (CapstanHaltException e) {
                        halt = e;
                    }
                }
                assertThat(halt).isNotNull();
                assertThat(halt.reason()).isEqualTo(HaltReason.XA_PENDING_ROWS_EXCEEDED);
                captured.add(stackTrace(halt));
                records.forEach(r -> captured.add(r.toString()));
                captured.add(s.metrics().toString());
                assertThat(records.stream().filter(r -> r instanceof RowChange).count())
                        .isEqualTo(5);
                assertThat(((RowChange) records.get(0)).after().getString(1).toString())
                        .startsWith(MARKER);
            }
        } finally {
            ctx.getConfiguration().getRootLogger().removeAppender("rule1");
            Configurator.setLevel("io.capstan", org.apache.logging.log4j.Level.INFO);
            ctx.updateLoggers();
            jul.removeHandler(julHandler);
            jul.setLevel(julLevel);
        }
        assertThat(captured).isNotEmpty();
        assertThat(captured).anyMatch(line -> line.contains("reconnecting"));
        assertThat(captured).noneMatch(line -> line.contains(MARKER));
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
