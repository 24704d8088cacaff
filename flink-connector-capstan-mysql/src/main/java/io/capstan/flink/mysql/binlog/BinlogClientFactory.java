package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.convert.BinlogEventDeserializers;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.network.SSLMode;

/**
 * Builds one {@link BinaryLogClient} per connection attempt: dump by GTID set from our own
 * processed set (on MariaDB by its GTID position, by file and offset on a server without GTIDs),
 * our server id, no keep-alive thread (the streamer reconnects itself, from its exact position),
 * heartbeats, TLS per the configured mode, no MariaDB ANNOTATE_ROWS events, and an event
 * deserializer that skips the rows of uncaptured tables, also inside compressed transactions.
 */
final class BinlogClientFactory {

    private static final EventType[] ROWS_EVENTS = {
        EventType.WRITE_ROWS, EventType.EXT_WRITE_ROWS,
        EventType.UPDATE_ROWS, EventType.EXT_UPDATE_ROWS,
        EventType.DELETE_ROWS, EventType.EXT_DELETE_ROWS,
    };

    private BinlogClientFactory() {}

    static BinaryLogClient create(
            BinlogStreamerConfig config,
            BinlogStartPosition position,
            TableSchemaCache tables,
            BinlogStreamerMetrics metrics) {
        MySqlConnectionConfig c = config.connection();
        BinaryLogClient client =
                new BinaryLogClient(c.hostname(), c.port(), c.username(), c.password());
        client.setServerId(config.serverId());
        client.setKeepAlive(false);
        client.setHeartbeatInterval(c.heartbeatInterval().toMillis());
        client.setConnectTimeout(c.connectTimeout().toMillis());
        client.setSSLMode(SSLMode.valueOf(c.sslMode().name()));
        // MariaDB sends ANNOTATE_ROWS (statement text) only on this dump flag: never ask for it
        client.setUseSendAnnotateRowsEvent(false);
        GtidSet processed = position.processed();
        if (MariaDbGtidAxes.isMariaDbSet(processed)) {
            // the library sends it as the dump's @slave_connect_state: one GTID per domain
            client.setGtidSet(MariaDbGtidAxes.position(processed).toString());
        } else if (!BinlogPositionAxis.isPositionSet(processed)) {
            client.setGtidSet(processed.toString());
        } // else the streamer names the file and offset (PositionModeEvents)
        client.setEventDeserializer(eventDeserializer(tables, metrics));
        client.setThreadFactory(
                r -> {
                    Thread t = new Thread(r, "capstan-binlog-client-" + config.serverId());
                    t.setDaemon(true);
                    return t;
                });
        return client;
    }

    static EventDeserializer eventDeserializer(
            TableSchemaCache tables, BinlogStreamerMetrics metrics) {
        EventDeserializer deserializer = capturedRowsOnly(tables, metrics);
        deserializer.setEventDataDeserializer(
                EventType.TRANSACTION_PAYLOAD,
                new CompressedTransactionDeserializer(capturedRowsOnly(tables, metrics)));
        return deserializer;
    }

    private static EventDeserializer capturedRowsOnly(
            TableSchemaCache tables, BinlogStreamerMetrics metrics) {
        EventDeserializer deserializer = BinlogEventDeserializers.create();
        for (EventType type : ROWS_EVENTS) {
            deserializer.setEventDataDeserializer(
                    type,
                    new CapturedRowsDeserializer(
                            deserializer.getEventDataDeserializer(type), tables, metrics));
        }
        deserializer.setEventDataDeserializer(
                EventType.PARTIAL_UPDATE_ROWS_EVENT,
                new CapturedRowsDeserializer(new PartialUpdateRefusal(tables), tables, metrics));
        return deserializer;
    }
}
