package io.capstan.flink.mysql.proxy.server;

import io.capstan.flink.mysql.binlog.BinlogStreamer;
import io.capstan.flink.mysql.binlog.BinlogStreamerConfig;
import io.capstan.flink.mysql.binlog.CreatedTablesConfig;
import io.capstan.flink.mysql.binlog.ReferentialFacts;
import io.capstan.flink.mysql.binlog.TableFilter;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.preflight.AccountPrivileges;
import io.capstan.flink.mysql.proxy.BinlogStream;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.proxy.MySqlProxies;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.CapstanSourceConfig;
import io.capstan.flink.mysql.source.TableSelection;

import org.apache.flink.annotation.Internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The source's connections to its server, from its configuration. */
@Internal
public final class ServerProxies implements MySqlProxies {

    /**
     * The longest wait between two reconnect attempts (unless the configured backoff is longer).
     */
    static final Duration MAX_RECONNECT_BACKOFF = Duration.ofSeconds(30);

    private final CapstanSourceConfig config;

    public ServerProxies(CapstanSourceConfig config) {
        this.config = config;
    }

    @Override
    public JdbcProxy jdbc() {
        return new ServerJdbcProxy(config.connection());
    }

    /**
     * On the snapshot's replica when one is configured ({@code scan.snapshot.hostname}), its chunk
     * sessions checked against the main server; otherwise {@link #jdbc()}.
     */
    @Override
    public JdbcProxy snapshotJdbc() {
        return config.snapshotConnection()
                .<JdbcProxy>map(replica -> new ServerJdbcProxy(replica, config.connection()))
                .orElseGet(this::jdbc);
    }

    @Override
    public BinlogStream binlog(
            BinlogStartPosition start,
            Collection<TableId> tables,
            StreamOrigin origin,
            DdlObserver ddlObserver) {
        BinlogStreamerConfig streamerConfig =
                BinlogStreamerConfig.builder()
                        .connection(config.connection())
                        .serverId(config.serverId())
                        .tableFilter(TableFilter.of(new HashSet<>(tables)))
                        .queueCapacity(config.binlogQueueCapacity())
                        .reconnectBackoff(
                                config.reconnectBackoff(),
                                config.reconnectBackoff().compareTo(MAX_RECONNECT_BACKOFF) > 0
                                        ? config.reconnectBackoff()
                                        : MAX_RECONNECT_BACKOFF)
                        .reconnectMaxDuration(config.reconnectBudget())
                        // As the split's stream began, not as configured now: a restore under
                        // another start mode would drop or lose transactions otherwise.
                        .origin(origin)
                        .truncateHandling(config.truncateHandling())
                        .onlineSchemaChanges(config.onlineSchemaChanges())
                        .spatialForm(config.spatialForm())
                        .xaMaxPendingRows(config.xaMaxPendingRows())
                        .createdTables(createdTables(tables))
                        .schemaChangeEvents(
                                config.schemaChangeEvents()
                                        ? new JdbcSchemaChangeColumns(config.connection())
                                        : null)
                        .build();
        return new StreamerBinlogStream(
                new BinlogStreamer(
                        streamerConfig,
                        start,
                        ddlObserver,
                        () -> {
                            try (JdbcProxy mysql = jdbc()) {
                                return referentialFacts(mysql);
                            }
                        }));
    }

    /** The foreign keys and triggers the account can see. */
    public static ReferentialFacts referentialFacts(JdbcProxy mysql) throws IOException {
        AccountPrivileges privileges = mysql.serverFacts().privileges();
        return new ReferentialFacts(
                mysql.foreignKeys(),
                mysql.tablesWithTriggers(),
                new HashSet<>(mysql.baseTables()),
                t -> privileges.hasOnTable("TRIGGER", t));
    }

    /**
     * Tables created while the stream runs are captured by the configured selection. Matching
     * tables that exist now but are not in {@code captured} were created after the tables were
     * listed; the stream must see their CREATE before the position the server had reached after
     * this listing, else they were created before its start and no one read their rows.
     */
    private CreatedTablesConfig createdTables(Collection<TableId> captured) {
        TableSelection selection = config.tables();
        try (JdbcProxy mysql = jdbc()) {
            List<TableId> onServer = mysql.baseTables();
            // read after the listing: every table listed was created before this position
            GtidSet listedBy = mysql.gtidState().latest().processed();
            Set<TableId> awaited = new TreeSet<>();
            for (TableId t : onServer) {
                if (selection.matches(t) && !captured.contains(t)) {
                    awaited.add(t);
                }
            }
            return new CreatedTablesConfig(selection::matches, awaited, listedBy);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not list the tables on " + config.connection().address(), e);
        }
    }
}
