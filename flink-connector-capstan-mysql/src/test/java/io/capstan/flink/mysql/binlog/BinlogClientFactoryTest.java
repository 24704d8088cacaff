package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.gtid.MariaDbGtidAxes;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The binlog client's settings that decide what the server sends. */
class BinlogClientFactoryTest {

    private static BinaryLogClient clientAt(GtidSet processed) {
        TableId orders = TableId.of("shop", "orders");
        BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
        BinlogStreamerConfig config =
                StreamerFixture.config(
                                MySqlConnectionConfig.builder()
                                        .hostname("db.example")
                                        .port(3306)
                                        .username("capstan")
                                        .password("secret")
                                        .build(),
                                orders)
                        .build();
        return BinlogClientFactory.create(
                config,
                BinlogStartPosition.of(processed),
                new TableSchemaCache(orders::equals, metrics),
                metrics);
    }

    @Test
    void aPositionModeClientNeverAsksMariaDbForAnnotateRowsEvents() {
        BinlogPositionAxis axis = BinlogPositionAxis.of(Events.UUID_A);
        BinaryLogClient client = clientAt(axis.before(new Position(3, 4)));
        // the statement text of every row change would come with the rows: never ask for it
        assertThat(client.isUseSendAnnotateRowsEvent()).isFalse();
        assertThat(client.getGtidSet())
                .as("position mode: the dump names file and offset")
                .isNull();
    }

    @Test
    void aMySqlGtidClientStartsFromTheProcessedSet() {
        GtidSet processed = GtidSet.parse(Events.UUID_A + ":1-42");
        assertThat(clientAt(processed).getGtidSet()).hasToString(processed.toString());
    }

    @Test
    void aMariaDbGtidClientStartsFromTheLastGtidOfEachDomain() {
        // domain 0 failed over from server 1 to server 2: the dump starts after 0-2-9
        GtidSet processed = MariaDbGtidAxes.ofState("0-1-5,0-2-9,3-7-2");
        BinaryLogClient client = clientAt(processed);
        assertThat(client.getGtidSet().toString().split(","))
                .containsExactlyInAnyOrder("0-2-9", "3-7-2");
        assertThat(client.isUseSendAnnotateRowsEvent()).isFalse();
    }
}
