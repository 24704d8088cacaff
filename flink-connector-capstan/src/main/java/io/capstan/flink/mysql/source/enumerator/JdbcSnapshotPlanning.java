package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.preflight.Preflight;
import io.capstan.flink.mysql.schema.JdbcSchemaReader;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;
import io.capstan.flink.mysql.source.SchemaFingerprint;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.plan.SnapshotPlanner;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.TableDiscovery;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SnapshotPlanning} over JDBC. Its one connection is used only by the enumerator's async
 * worker (callAsync runs one task at a time), reopened after a failure; closed from the
 * coordinator thread, hence the synchronized field access.
 */
public final class JdbcSnapshotPlanning implements SnapshotPlanning {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSnapshotPlanning.class);

    private final CapstanSourceConfig config;
    private Connection connection;

    public JdbcSnapshotPlanning(CapstanSourceConfig config) {
        this.config = config;
    }

    @Override
    public List<SnapshotTable> resolveTables() throws Exception {
        List<TableId> tables = TableDiscovery.resolve(config.connection(), config.tables());
        LOG.info("Snapshotting {} table(s) on {}: {}", tables.size(), config.connection().address(), tables);
        Preflight.verify(config.connection(), tables);
        List<SnapshotTable> out = new ArrayList<>();
        Connection c = connection();
        for (TableId t : tables) {
            ChunkKey key = ChunkKeyResolver.resolve(
                    JdbcTableKeyMetadataReader.read(c, t), config.snapshot().chunkKeyColumn(t));
            // Converters must exist for every column before anything is read (refuses early).
            TableSchema schema = JdbcSchemaReader.read(c, t);
            TableReadSpec.forSchema(key, schema);
            out.add(new SnapshotTable(key, SchemaFingerprint.of(schema)));
        }
        return out;
    }

    @Override
    public Planned planMore(List<ChunkKey> keys, List<ChunkPlannerState> states, int max) throws Exception {
        Map<TableId, ChunkPlannerState> restored = new LinkedHashMap<>();
        for (ChunkPlannerState s : states) {
            restored.put(s.table(), s);
        }
        try {
            SnapshotPlanner planner = new SnapshotPlanner(
                    keys, config.snapshot().chunkSize(), new JdbcBoundaryQueries(connection()), restored);
            List<SnapshotChunk> chunks = new ArrayList<>();
            while (chunks.size() < max) {
                Optional<SnapshotChunk> next = planner.next();
                if (next.isEmpty()) {
                    break;
                }
                chunks.add(next.get());
            }
            return new Planned(chunks, planner.states());
        } catch (Exception e) {
            close(); // the next attempt reconnects
            throw e;
        }
    }

    private synchronized Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = JdbcConnections.open(config.connection());
        }
        return connection;
    }

    @Override
    public synchronized void close() {
        JdbcConnections.closeQuietly(connection);
        connection = null;
    }
}
