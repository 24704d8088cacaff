package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.connect.JdbcConnections;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.schema.read.JdbcSchemaReader;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcBoundaryQueries;
import io.capstan.flink.mysql.snapshot.jdbc.JdbcTableKeyMetadataReader;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.ChunkKeyResolver;
import io.capstan.flink.mysql.snapshot.key.TableKeyMetadata;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Shared steps of the snapshot ITs, all through the least-privileged connector user. */
final class SnapshotTestSupport {

    private SnapshotTestSupport() {}

    static ChunkKey resolve(
            MySqlConnectionConfig config, TableId table, Optional<String> chunkKeyColumn)
            throws SQLException {
        try (Connection c = JdbcConnections.open(config)) {
            return ChunkKeyResolver.resolve(
                    JdbcTableKeyMetadataReader.read(c, table), chunkKeyColumn);
        }
    }

    static List<String> columns(MySqlConnectionConfig config, TableId table) throws SQLException {
        try (Connection c = JdbcConnections.open(config)) {
            TableKeyMetadata m = JdbcTableKeyMetadataReader.read(c, table);
            List<String> names = new ArrayList<>();
            m.columns().forEach(col -> names.add(col.name()));
            return names;
        }
    }

    /**
     * The production wiring: the schema reader and RowConverter, and the table's fingerprint
     * (schema, collations, the key's index) that each chunk is checked against, as the source
     * reader builds it.
     */
    static TableReadSpec spec(MySqlConnectionConfig config, ChunkKey key) throws SQLException {
        try (Connection c = JdbcConnections.open(config)) {
            TableSchema schema = JdbcSchemaReader.read(c, key.table());
            TableKeyMetadata keys = JdbcTableKeyMetadataReader.read(c, key.table());
            return TableReadSpec.forSchema(key, schema)
                    .fingerprinted(TableFingerprints.of(schema, keys, key));
        }
    }

    static JdbcBoundaryQueries boundaryQueries(Connection c) {
        return new JdbcBoundaryQueries(c);
    }

    static String gtidExecuted(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT @@global.gtid_executed")) {
            rs.next();
            return rs.getString(1).replaceAll("\\s", "");
        }
    }
}
