package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.StartupMode;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.preflight.CaptureScope;
import io.capstan.flink.mysql.preflight.ForeignKeyNotice;
import io.capstan.flink.mysql.preflight.Preflight;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.TableDiscovery;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Plans the binlog split against the server through its {@link JdbcProxy}. Each call releases the
 * proxy's connection when done: the planner is asked once per start, then never again.
 */
@Internal
public final class JdbcBinlogSplitPlanner implements BinlogSplitPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcBinlogSplitPlanner.class);

    private final CapstanSourceConfig config;
    private final JdbcProxy mysql;

    /** Against the server behind {@code mysql}, which it owns from now on. */
    public JdbcBinlogSplitPlanner(CapstanSourceConfig config, JdbcProxy mysql) {
        this.config = config;
        this.mysql = mysql;
    }

    @Override
    public BinlogSplit planNewSplit() throws Exception {
        try {
            List<TableId> tables = TableDiscovery.resolve(mysql, config.tables());
            LOG.info(
                    "Capturing {} table(s) on {}: {}",
                    tables.size(),
                    mysql.serverAddress(),
                    tables);
            Preflight.check(
                    mysql.serverFacts(), mysql.serverAddress(), tables, CaptureScope.BINLOG_ONLY);
            ForeignKeyNotice.log(mysql.foreignKeys(), tables);
            BinlogStartPosition start =
                    StartPositionResolver.resolve(mysql, config.startupOptions());
            // Listed again after the start is read: a table created in between is in the start's
            // processed set, so the stream would never see its CREATE (docs/operations.md).
            List<TableId> atStart = TableDiscovery.resolve(mysql, config.tables());
            if (!atStart.equals(tables)) {
                Preflight.check(
                        mysql.serverFacts(),
                        mysql.serverAddress(),
                        atStart,
                        CaptureScope.BINLOG_ONLY);
                tables = atStart;
            }
            // The split keeps how it began: a restore streams on so, whatever is configured then.
            BinlogSplit split =
                    new BinlogSplit(tables, start)
                            .withOrigin(
                                    StreamOrigin.streamOnly(
                                            config.startupOptions().mode() == StartupMode.TIMESTAMP
                                                    ? config.startupOptions().timestampMillis()
                                                    : null));
            LOG.info("Planned {} for start {}", split, config.startupOptions());
            return split;
        } finally {
            mysql.close();
        }
    }

    @Override
    public void verifyBeforeAssigning(BinlogSplit split) throws Exception {
        try {
            Preflight.check(
                    mysql.serverFacts(),
                    mysql.serverAddress(),
                    split.tables(),
                    CaptureScope.BINLOG_ONLY);
        } finally {
            mysql.close();
        }
    }
}
