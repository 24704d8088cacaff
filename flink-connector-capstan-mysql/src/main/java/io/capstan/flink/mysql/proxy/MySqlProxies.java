package io.capstan.flink.mysql.proxy;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.event.StreamOrigin;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.Collection;

/**
 * Where a source reader gets its connections to MySQL: the server's in production ({@code
 * proxy.server.ServerProxies}), in-memory fakes in unit tests.
 */
@Internal
public interface MySqlProxies {

    /** A new JDBC proxy with a connection of its own (opened on first use). */
    JdbcProxy jdbc();

    /**
     * A new JDBC proxy for reading chunks and their tables' schemas: on the snapshot's replica when
     * one is configured, else the same as {@link #jdbc()}.
     */
    default JdbcProxy snapshotJdbc() {
        return jdbc();
    }

    /**
     * A binlog stream, not yet started, of {@code tables} from {@code start}, streaming on as it
     * began ({@code origin}, kept in the split's state; the configured start mode is not read);
     * {@code ddlObserver} sees each DDL statement in the stream before the rows after it.
     */
    BinlogStream binlog(
            BinlogStartPosition start,
            Collection<TableId> tables,
            StreamOrigin origin,
            DdlObserver ddlObserver);
}
