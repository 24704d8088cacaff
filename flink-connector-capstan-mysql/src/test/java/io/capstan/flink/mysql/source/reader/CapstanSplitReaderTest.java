package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsRemoval;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.TestChanges.end;
import static io.capstan.flink.mysql.source.reader.ReaderFixtures.TABLE;
import static io.capstan.flink.mysql.source.reader.ReaderFixtures.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The split reader over the fake server: chunks first, then the binlog split. */
class CapstanSplitReaderTest {

    private final FakeMySql mysql = new FakeMySql().table(TABLE, 20);
    private final CapstanReaderMetrics metrics = ReaderFixtures.metrics();
    private final ChunkFetcher chunks =
            new ChunkFetcher(mysql.jdbc(), SnapshotReadOptions.defaults(), metrics);
    private final CapstanSplitReader reader =
            new CapstanSplitReader(chunks, new BinlogFetcher(mysql, Duration.ofHours(1), metrics));

    @AfterEach
    void close() throws Exception {
        reader.close();
        chunks.close();
    }

    private static SplitsChange<CapstanSplit> add(CapstanSplit... splits) {
        return new SplitsAddition<>(List.of(splits));
    }

    @Test
    void readsEachChunkSplitInOneFetchAndFinishesIt() throws Exception {
        reader.handleSplitsChanges(add(chunk(TABLE, 0, null, 8L), chunk(TABLE, 1, 8L, null)));
        RecordsWithSplitIds<SourceElement> first = reader.fetch();
        assertThat(first.nextSplit()).isEqualTo("db.t#0");
        assertThat(first.nextRecordFromSplit().asChunk().result().rowCount()).isEqualTo(7);
        assertThat(first.finishedSplits()).containsExactly("db.t#0");
        RecordsWithSplitIds<SourceElement> second = reader.fetch();
        assertThat(second.nextSplit()).isEqualTo("db.t#1");
        assertThat(second.nextRecordFromSplit().asChunk().result().rowCount()).isEqualTo(13);
        RecordsWithSplitIds<SourceElement> idle = reader.fetch();
        assertThat(idle.nextSplit()).as("no split, no binlog yet").isNull();
    }

    @Test
    void theBinlogSplitReleasesTheSnapshotsConnectionsThenStreams() throws Exception {
        reader.handleSplitsChanges(add(chunk(TABLE, 0, null, null)));
        reader.fetch();
        assertThat(mysql.openConnections()).isEqualTo(2);

        BinlogStartPosition start = BinlogStartPosition.of(GtidSet.parse(UUID + ":1-5"));
        reader.handleSplitsChanges(add(new BinlogSplit(List.of(TABLE), start)));
        assertThat(mysql.proxies.get(0).connected()).as("the chunk fetcher's").isFalse();
        assertThat(mysql.streams.get(0).started()).isTrue();

        BinlogRecord record = end(6);
        mysql.streams.get(0).deliver(record);
        RecordsWithSplitIds<SourceElement> batch = reader.fetch();
        assertThat(batch.nextSplit()).isEqualTo(BinlogSplit.SPLIT_ID);
        assertThat(batch.nextRecordFromSplit().asBinlogRecord()).isSameAs(record);
    }

    @Test
    void aFetchDrainsWhatArrivedAndAWakeUpBeforeItDoesNotCutItShort() throws Exception {
        reader.handleSplitsChanges(
                add(
                        new BinlogSplit(
                                List.of(TABLE),
                                BinlogStartPosition.of(GtidSet.parse(UUID + ":1-5")))));
        for (int i = 0; i < 10; i++) {
            mysql.streams.get(0).deliver(end(6 + i));
        }
        RecordsWithSplitIds<SourceElement> all = reader.fetch();
        int n = 0;
        all.nextSplit();
        while (all.nextRecordFromSplit() != null) {
            n++;
        }
        assertThat(n).isEqualTo(10);

        mysql.streams.get(0).deliver(end(100), end(101));
        reader.wakeUp(); // meant for the previous fetch: a fetch starts by clearing it
        RecordsWithSplitIds<SourceElement> batch = reader.fetch();
        batch.nextSplit();
        assertThat(batch.nextRecordFromSplit()).isNotNull();
        assertThat(batch.nextRecordFromSplit()).isNotNull();
    }

    @Test
    void refusesSplitRemovals() {
        assertThatThrownBy(() -> reader.handleSplitsChanges(new SplitsRemoval<>(List.of())))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void closeClosesTheStream() throws Exception {
        reader.handleSplitsChanges(
                add(
                        new BinlogSplit(
                                List.of(TABLE),
                                BinlogStartPosition.of(GtidSet.parse(UUID + ":1-5")))));
        reader.close();
        assertThat(mysql.streams.get(0).closed()).isTrue();
    }
}
