package io.capstan.flink.mysql.snapshot.ddl;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.convert.BinlogEventDeserializers;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.capstan.flink.mysql.testing.ConnectorConfigs.connectorConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard against the text the server really writes to the binlog for each DDL (MySQL rewrites
 * some statements, e.g. DROP TABLE gets quoted names and a comment).
 */
class SnapshotDdlGuardIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    /** One query event: its default database and text. */
    static final class Ddl {
        final String database;
        final String sql;

        Ddl(String database, String sql) {
            this.database = database;
            this.sql = sql;
        }
    }

    @Test
    void recognisesTheServersOwnDdlText() throws Exception {
        DB.execute(
                "CREATE TABLE snap (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE other (id INT PRIMARY KEY)");
        String start = DB.server().gtidExecuted().replaceAll("\\s", "");
        String[] touching = {
            "ALTER TABLE snap ADD COLUMN w INT",
            "CREATE INDEX iv ON snap (v)",
            "DROP INDEX iv ON snap",
            "TRUNCATE TABLE snap",
            "OPTIMIZE TABLE snap",
            "RENAME TABLE snap TO snap2, snap2 TO snap",
        };
        String[] elsewhere = {
            "ALTER TABLE other ADD COLUMN w INT",
            "CREATE TABLE third LIKE other",
            "CREATE VIEW vsnap AS SELECT * FROM snap",
            "ANALYZE TABLE snap",
            "DROP TABLE IF EXISTS third",
        };
        DB.execute(touching);
        DB.execute(elsewhere);
        DB.execute("DROP TABLE snap");
        String end = DB.server().gtidExecuted().replaceAll("\\s", "");

        List<Ddl> ddls = readDdl(connectorConfig(DB), GtidSet.parse(start), GtidSet.parse(end));
        assertThat(ddls).hasSize(touching.length + elsewhere.length + 1);
        Set<TableId> inProgress = Set.of(TableId.of(DB.name(), "snap"));
        for (int i = 0; i < ddls.size(); i++) {
            Ddl d = ddls.get(i);
            boolean expected = i < touching.length || i == ddls.size() - 1;
            assertThat(SnapshotDdlGuard.touchedTable(d.database, d.sql, inProgress).isPresent())
                    .as("binlog text of statement %d", i)
                    .isEqualTo(expected);
        }
    }

    private static List<Ddl> readDdl(MySqlConnectionConfig config, GtidSet start, GtidSet end)
            throws Exception {
        List<Ddl> out = new ArrayList<>();
        BinaryLogClient client =
                new BinaryLogClient(
                        config.hostname(), config.port(), config.username(), config.password());
        client.setServerId(100_000 + new Random().nextInt(1_000_000));
        client.setGtidSet(start.toString());
        client.setKeepAlive(false);
        client.setEventDeserializer(BinlogEventDeserializers.create());
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<GtidSet> processed = new AtomicReference<>(start);
        client.registerEventListener(
                event -> {
                    if (event.getData() instanceof GtidEventData) {
                        processed.set(
                                processed
                                        .get()
                                        .add(
                                                Gtid.parse(
                                                        ((GtidEventData) event.getData())
                                                                .getGtid())));
                    } else if (event.getData() instanceof QueryEventData) {
                        QueryEventData q = (QueryEventData) event.getData();
                        if (!q.getSql().equalsIgnoreCase("BEGIN")) {
                            out.add(new Ddl(q.getDatabase(), q.getSql()));
                            if (processed.get().containsAll(end)) {
                                done.countDown();
                            }
                        }
                    }
                });
        client.connect(10_000);
        try {
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            client.disconnect();
        }
        return out;
    }
}
