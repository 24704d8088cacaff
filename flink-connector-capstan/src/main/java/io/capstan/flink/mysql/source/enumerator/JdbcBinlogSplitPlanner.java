package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.binlog.BinlogStartPosition;
import io.capstan.flink.mysql.preflight.Preflight;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.TableDiscovery;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Plans the binlog split against the real server over JDBC. */
public final class JdbcBinlogSplitPlanner implements BinlogSplitPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcBinlogSplitPlanner.class);

    private final CapstanSourceConfig config;

    public JdbcBinlogSplitPlanner(CapstanSourceConfig config) {
        this.config = config;
    }

    @Override
    public BinlogSplit planNewSplit() throws Exception {
        List<TableId> tables = TableDiscovery.resolve(config.connection(), config.tables());
        LOG.info("Capturing {} table(s) on {}: {}", tables.size(), config.connection().address(), tables);
        Preflight.verify(config.connection(), tables);
        BinlogStartPosition start =
                StartPositionResolver.resolve(config.connection(), config.startupOptions());
        BinlogSplit split = new BinlogSplit(tables, start);
        LOG.info("Planned {} for start {}", split, config.startupOptions());
        return split;
    }

    @Override
    public void verifyBeforeAssigning(BinlogSplit split) throws Exception {
        Preflight.verify(config.connection(), split.tables());
    }
}
