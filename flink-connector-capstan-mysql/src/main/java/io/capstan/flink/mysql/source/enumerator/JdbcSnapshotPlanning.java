package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.binlog.ServerGtidState;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.CaptureScope;
import io.capstan.flink.mysql.preflight.ForeignKeyNotice;
import io.capstan.flink.mysql.preflight.Preflight;
import io.capstan.flink.mysql.preflight.PreflightException;
import io.capstan.flink.mysql.preflight.PreflightFailure;
import io.capstan.flink.mysql.preflight.PreflightRules;
import io.capstan.flink.mysql.preflight.ServerFacts;
import io.capstan.flink.mysql.preflight.SnapshotServerRules;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.proxy.PrimaryCatchUp;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;
import io.capstan.flink.mysql.snapshot.plan.ChunkPlannerState;
import io.capstan.flink.mysql.snapshot.plan.SnapshotChunk;
import io.capstan.flink.mysql.snapshot.plan.SnapshotPlanner;
import io.capstan.flink.mysql.snapshot.read.TableFingerprints;
import io.capstan.flink.mysql.snapshot.read.TableReadSpec;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.SnapshotLoadLimits;
import io.capstan.flink.mysql.source.TableDiscovery;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link SnapshotPlanning} through the server's {@link JdbcProxy}. The proxy's one connection is
 * used only by the enumerator's async worker (callAsync runs one task at a time) and reopened after
 * a failure; {@link #close} comes from the coordinator thread.
 */
@Internal
public final class JdbcSnapshotPlanning implements SnapshotPlanning {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSnapshotPlanning.class);

    private final CapstanSourceConfig config;
    private final JdbcProxy mysql;

    /** The snapshot's replica ({@code scan.snapshot.hostname}), or null: the server plans. */
    @Nullable private final JdbcProxy replica;

    /** Against the server behind {@code mysql}, which it owns from now on. */
    public JdbcSnapshotPlanning(CapstanSourceConfig config, JdbcProxy mysql) {
        this(config, mysql, null);
    }

    /**
     * Chunk boundaries planned on {@code replica} when not null (checked by the preflight before
     * anything is read); tables, schemas, keys and the binlog's retention from {@code mysql}. Owns
     * both from now on.
     */
    public JdbcSnapshotPlanning(
            CapstanSourceConfig config, JdbcProxy mysql, @Nullable JdbcProxy replica) {
        this.config = config;
        this.mysql = mysql;
        this.replica = replica;
    }

    @Override
    public SnapshotLoadLimits loadLimits() {
        return config.snapshot().loadLimits();
    }

    @Override
    public List<SnapshotTable> resolveTables() throws Exception {
        List<TableId> tables = TableDiscovery.resolve(mysql, config.tables());
        LOG.info(
                "Snapshotting {} table(s) on {}: {}", tables.size(), mysql.serverAddress(), tables);
        return resolve(tables);
    }

    /** The preflight for {@code tables}, then each one's chunk key and schema fingerprint. */
    private List<SnapshotTable> resolve(List<TableId> tables) throws Exception {
        ServerFacts primaryFacts = mysql.serverFacts();
        Preflight.check(
                primaryFacts, mysql.serverAddress(), tables, CaptureScope.SNAPSHOT_AND_BINLOG);
        if (replica != null) {
            Optional<PreflightFailure> unsupported =
                    SnapshotServerRules.checkPrimary(primaryFacts.version());
            if (unsupported.isPresent()) {
                throw new PreflightException(mysql.serverAddress(), List.of(unsupported.get()));
            }
            checkReplica(tables);
        }
        ForeignKeyNotice.log(mysql.foreignKeys(), tables);
        List<SnapshotTable> out = new ArrayList<>();
        for (TableId t : tables) {
            TransactionalEngines.require(t, mysql.storageEngine(t));
            TableKeyMetadata keys = mysql.keyMetadata(t);
            ChunkKey key = ChunkKeyResolver.resolve(keys, config.snapshot().chunkKeyColumn(t));
            if (key.isKeyless()) {
                KeylessTableLimit.check(
                        key, mysql.estimatedRowCount(key), config.snapshot().keylessTableMaxRows());
                LOG.info(
                        "Table {} has no primary key: it is read as one unsplit chunk, and its"
                                + " changes are streamed by whole row",
                        t);
            }
            // Converters must exist for every column before anything is read (refuses early).
            TableSchema schema = mysql.tableSchema(t);
            TableReadSpec.forSchema(key, schema);
            out.add(new SnapshotTable(key, TableFingerprints.of(schema, keys, key)));
        }
        return out;
    }

    /** The snapshot's replica: GTIDs, grants, and no transaction the primary lacks. */
    private void checkReplica(List<TableId> tables) throws Exception {
        ServerFacts facts = replica.serverFacts();
        // after the replica's set: a replica in step with the primary is then contained, once the
        // primary's commit stage caught up (PrimaryCatchUp)
        ServerGtidState primary =
                PrimaryCatchUp.holding(
                        SnapshotServerRules.executedOrEmpty(facts),
                        mysql::gtidState,
                        state -> state.latest().processed(),
                        PrimaryCatchUp.WAIT);
        if (primary.positionMode()) {
            throw new PreflightException(
                    mysql.serverAddress(),
                    List.of(
                            new PreflightFailure(
                                    HaltReason.GTID_MODE_NOT_ON,
                                    "gtid_mode",
                                    primary.files().gtidMode()
                                            + " (a snapshot from a replica, scan.snapshot.hostname,"
                                            + " needs GTIDs: without them the replica's binlog"
                                            + " positions are its own, not the primary's)",
                                    "remove scan.snapshot.hostname and .port (the chunks are then"
                                            + " read on the primary), or turn GTIDs on: "
                                            + PreflightRules.gtidModeRemedy(
                                                    primary.files().gtidMode(), false))));
        }
        List<PreflightFailure> failures =
                SnapshotServerRules.check(
                        facts,
                        primary.latest().processed(),
                        primary.earliest().processed(),
                        mysql.serverAddress(),
                        tables);
        if (!failures.isEmpty()) {
            throw new PreflightException(replica.serverAddress(), failures);
        }
        SnapshotServerRules.writableWarning(facts, replica.serverAddress()).ifPresent(LOG::warn);
        LOG.info(
                "The snapshot's chunks are planned and read on the replica {}; the binlog and the"
                        + " handoff on {}",
                replica.serverAddress(),
                mysql.serverAddress());
    }

    @Override
    public void checkRestoredTables(List<TableId> inState) throws Exception {
        TableDiscovery.Discovered found = TableDiscovery.discover(mysql, config.tables());
        RestoredTableList.check(inState, found.selected(), found.onServer());
    }

    @Override
    public RestoredSplitCheck checkRestoredSplit(List<TableId> inSplit) throws Exception {
        TableDiscovery.Discovered found = TableDiscovery.discover(mysql, config.tables());
        RestoredTableList.SplitTableChange change =
                RestoredTableList.splitChange(
                        inSplit, found.selected(), found.onServer(), config.newlyAddedTables());
        if (change.added().isEmpty()) {
            return new RestoredSplitCheck(change.removed(), List.of());
        }
        List<TableId> added = new ArrayList<>(change.added());
        LOG.info(
                "Snapshotting {} table(s) added to the table list on {}: {}",
                added.size(),
                mysql.serverAddress(),
                added);
        return new RestoredSplitCheck(change.removed(), resolve(added));
    }

    @Override
    public GtidSet gtidPurged() throws Exception {
        return mysql.gtidState().earliest().processed();
    }

    @Override
    public RetentionFacts retentionFacts(List<ChunkKey> estimateRowsOf) throws Exception {
        // The retention variables come with the preflight's facts: a few small statements, at
        // most once per watch period.
        Optional<BinlogRetention> retention =
                BinlogRetention.fromVariables(mysql.serverFacts()::variable);
        if (estimateRowsOf.isEmpty()) {
            return new RetentionFacts(retention, OptionalLong.empty());
        }
        long rows = 0;
        for (ChunkKey key : estimateRowsOf) {
            rows += Math.max(0, mysql.estimatedRowCount(key));
        }
        return new RetentionFacts(retention, OptionalLong.of(rows));
    }

    @Override
    public String serverAddress() {
        return mysql.serverAddress();
    }

    @Override
    public Planned planMore(List<ChunkKey> keys, List<ChunkPlannerState> states, int max)
            throws Exception {
        Map<TableId, ChunkPlannerState> restored = new LinkedHashMap<>();
        for (ChunkPlannerState s : states) {
            restored.put(s.table(), s);
        }
        // The proxy drops its connection after a failed query: the next attempt reconnects.
        SnapshotPlanner planner =
                new SnapshotPlanner(
                        keys,
                        config.snapshot().chunkSize(),
                        replica != null ? replica : mysql,
                        restored);
        List<SnapshotChunk> chunks = new ArrayList<>();
        while (chunks.size() < max) {
            Optional<SnapshotChunk> next = planner.next();
            if (next.isEmpty()) {
                break;
            }
            chunks.add(next.get());
        }
        return new Planned(chunks, planner.states());
    }

    @Override
    public void close() {
        mysql.close();
        if (replica != null) {
            replica.close();
        }
    }
}
