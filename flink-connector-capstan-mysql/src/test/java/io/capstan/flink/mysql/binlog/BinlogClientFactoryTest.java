package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The binlog client's settings that decide what the server sends. */
class BinlogClientFactoryTest {

    @Test
    void aPositionModeClientNeverAsksMariaDbForAnnotateRowsEvents() {
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
        BinlogPositionAxis axis = BinlogPositionAxis.of(Events.UUID_A);
        BinaryLogClient client =
                BinlogClientFactory.create(
                        config,
                        BinlogStartPosition.of(axis.before(new Position(3, 4))),
                        new TableSchemaCache(orders::equals, metrics),
                        metrics);
        // the statement text of every row change would come with the rows: never ask for it
        assertThat(client.isUseSendAnnotateRowsEvent()).isFalse();
        assertThat(client.getGtidSet())
                .as("position mode: the dump names file and offset")
                .isNull();
    }
}
