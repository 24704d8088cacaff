package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.schema.ColumnSchema;
import io.capstan.flink.mysql.schema.MySqlType;
import io.capstan.flink.mysql.schema.TableSchema;
import io.capstan.flink.mysql.snapshot.read.ChunkResult;
import io.capstan.flink.mysql.snapshot.read.SnapshotReadOptions;
import io.capstan.flink.mysql.snapshot.read.SnapshotThrottle;
import io.capstan.flink.mysql.source.TestChanges;

import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.capstan.flink.mysql.source.reader.ReaderFixtures.TABLE;
import static io.capstan.flink.mysql.source.reader.ReaderFixtures.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The chunk fetcher against the fake server: reads, schema fingerprints, retries, connections. */
class ChunkFetcherTest {

    private static final GtidSet G = GtidSet.parse(TestChanges.UUID + ":1-42");

    private final FakeMySql mysql = new FakeMySql().table(TABLE, 25);
    private final ChunkFetcher fetcher =
            new ChunkFetcher(
                    mysql.jdbc(), SnapshotReadOptions.defaults(), ReaderFixtures.metrics());

    ChunkFetcherTest() {
        mysql.gtids(G, GtidSet.empty());
    }

    private static ChunkResult only(ElementBatch batch, String splitId) {
        assertThat(batch.nextSplit()).isEqualTo(splitId);
        SourceElement element = batch.nextRecordFromSplit();
        assertThat(batch.nextRecordFromSplit()).isNull();
        assertThat(batch.finishedSplits()).containsExactly(splitId);
        return element.asChunk().result();
    }

    private static List<Long> ids(ChunkResult result) {
        return result.rows().stream().map((RowData r) -> r.getLong(0)).toList();
    }

    @Test
    void readsOneWholeChunkPerFetchAtItsPosition() throws Exception {
        fetcher.add(chunk(TABLE, 0, null, 10L));
        fetcher.add(chunk(TABLE, 1, 10L, null));
        assertThat(fetcher.hasWork()).isTrue();

        ChunkResult first = only(fetcher.fetch(), "db.t#0");
        assertThat(ids(first)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(first.gtidSet()).isEqualTo(G);
        ChunkResult second = only(fetcher.fetch(), "db.t#1");
        assertThat(ids(second)).hasSize(16).startsWith(10L).endsWith(25L);
        assertThat(fetcher.hasWork()).isFalse();
        // the schema is read once per table, not per chunk
        assertThat(mysql.calls(FakeMySql.TABLE_SCHEMA)).isEqualTo(1);
    }

    @Test
    void theThrottleHoldsTheNextChunkBackUntilTheRowsReadArePaidFor() throws Exception {
        AtomicLong clock = new AtomicLong();
        ChunkFetcher throttled =
                new ChunkFetcher(
                        mysql.jdbc(),
                        SnapshotReadOptions.defaults(),
                        new SnapshotThrottle(10, clock::get), // 10 rows/s: 9 rows take 0.9 s
                        ReaderFixtures.metrics());
        throttled.add(chunk(TABLE, 0, null, 10L));
        throttled.add(chunk(TABLE, 1, 10L, null));
        assertThat(ids(only(throttled.fetch(), "db.t#0"))).hasSize(9);

        ElementBatch held = throttled.fetch();
        assertThat(held.nextSplit()).as("an empty batch while the throttle waits").isNull();
        assertThat(throttled.hasWork()).isTrue();
        assertThat(mysql.calls(FakeMySql.READ_CHUNK)).isEqualTo(1);

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(900));
        assertThat(ids(only(throttled.fetch(), "db.t#1"))).hasSize(16);
    }

    @Test
    void aFailedReadKeepsTheChunkQueuedAndTheNextFetchReadsItAgain() throws Exception {
        fetcher.add(chunk(TABLE, 0, null, null));
        mysql.failNext(FakeMySql.READ_CHUNK, 1);
        assertThatThrownBy(fetcher::fetch).isInstanceOf(IOException.class);
        assertThat(fetcher.hasWork()).isTrue();
        assertThat(ids(only(fetcher.fetch(), "db.t#0"))).hasSize(25);
        assertThat(mysql.connects()).as("the failed session reconnected").isEqualTo(3);
    }

    @Test
    void aFailedSchemaReadIsRetriedOnTheNextFetch() throws Exception {
        fetcher.add(chunk(TABLE, 0, null, null));
        mysql.failNext(FakeMySql.TABLE_SCHEMA, 1);
        assertThatThrownBy(fetcher::fetch).isInstanceOf(IOException.class);
        assertThat(ids(only(fetcher.fetch(), "db.t#0"))).hasSize(25);
    }

    @Test
    void aSchemaOtherThanTheFingerprintedOneHaltsBeforeAnythingIsRead() {
        TableSchema altered =
                new TableSchema(
                        TABLE,
                        List.of(
                                ColumnSchema.builder("id", MySqlType.BIGINT)
                                        .nullable(false)
                                        .build(TABLE),
                                ColumnSchema.builder("name", MySqlType.VARCHAR)
                                        .length(64)
                                        .charset("utf8mb4")
                                        .build(TABLE)),
                        new int[] {0});
        mysql.alter(TABLE, altered);
        fetcher.add(chunk(TABLE, 3, null, null));
        assertThatThrownBy(fetcher::fetch)
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.SNAPSHOT_SCHEMA_DRIFTED))
                .hasMessageContaining("db.t")
                .hasMessageContaining("db.t#3");
        assertThat(mysql.calls(FakeMySql.READ_CHUNK)).isZero();
        assertThat(fetcher.hasWork()).isTrue();
    }

    @Test
    void closeReleasesEveryConnectionAndALaterChunkOpensThemAgain() throws Exception {
        fetcher.add(chunk(TABLE, 0, null, null));
        fetcher.fetch();
        assertThat(mysql.openConnections()).isEqualTo(2); // the schema's and the session's
        fetcher.close();
        assertThat(mysql.openConnections()).isZero();

        fetcher.add(chunk(TABLE, 1, null, null));
        fetcher.fetch();
        assertThat(mysql.openConnections()).isEqualTo(1); // the schema is still known
        fetcher.close();
        assertThat(mysql.openConnections()).isZero();
    }
}
