package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.FakeBinlogStream;
import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.capstan.flink.mysql.source.TestChanges.TABLE;
import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.TestChanges.end;
import static io.capstan.flink.mysql.source.TestChanges.gtid;
import static io.capstan.flink.mysql.source.TestChanges.insert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The binlog fetcher over a fake stream: opening, batching, halts and closing. */
class BinlogFetcherTest {

    private static final BinlogStartPosition START =
            BinlogStartPosition.of(GtidSet.parse(UUID + ":1-10"));

    private final FakeMySql mysql = new FakeMySql();
    private final BinlogFetcher fetcher =
            new BinlogFetcher(mysql, Duration.ofHours(1), ReaderFixtures.metrics());

    @AfterEach
    void close() {
        fetcher.close();
    }

    private static List<BinlogRecord> records(ElementBatch batch) {
        List<BinlogRecord> out = new ArrayList<>();
        if (batch.nextSplit() == null) {
            return out;
        }
        SourceElement e;
        while ((e = batch.nextRecordFromSplit()) != null) {
            out.add(e.asBinlogRecord());
        }
        return out;
    }

    @Test
    void nothingIsFetchedBeforeTheBinlogSplitArrives() throws Exception {
        assertThat(fetcher.isStreaming()).isFalse();
        assertThat(records(fetcher.fetch(() -> false))).isEmpty();
        assertThat(mysql.streams).isEmpty();
    }

    @Test
    void opensTheStreamAtTheSplitsPositionForItsTablesAndHandsOverItsRecords() throws Exception {
        fetcher.start(new BinlogSplit(List.of(TABLE), START));
        FakeBinlogStream stream = mysql.streams.get(0);
        assertThat(stream.started()).isTrue();
        assertThat(stream.start).isEqualTo(START);
        assertThat(stream.tables).containsExactly(TABLE);
        assertThat(stream.ddlObserver).as("no snapshot, no DDL check").isSameAs(DdlObserver.NONE);
        assertThat(fetcher.isStreaming()).isTrue();

        assertThat(records(fetcher.fetch(() -> false))).as("nothing arrived yet").isEmpty();
        BinlogRecord[] delivered = {insert(11, 0, 1, "a"), insert(11, 1, 2, "b"), end(11)};
        stream.deliver(delivered);
        ElementBatch batch = fetcher.fetch(() -> false);
        assertThat(batch.finishedSplits()).isEmpty();
        assertThat(records(batch)).containsExactly(delivered);
    }

    @Test
    void aSplitAfterASnapshotChecksDdlAgainstItsGate() {
        fetcher.start(new BinlogSplit(List.of(TABLE), START, GatedEmitterTest.GATE));
        assertThat(mysql.streams.get(0).ddlObserver).isNotSameAs(DdlObserver.NONE);
    }

    @Test
    void aBatchHoldsAtMostMaxBatchRecordsAndStopsWhenWokenUp() throws Exception {
        fetcher.start(new BinlogSplit(List.of(TABLE), START, CursorGate.empty()));
        FakeBinlogStream stream = mysql.streams.get(0);
        for (int i = 0; i < BinlogFetcher.MAX_BATCH + 5; i++) {
            stream.deliver(end(11 + i));
        }
        assertThat(records(fetcher.fetch(() -> false))).hasSize(BinlogFetcher.MAX_BATCH);
        assertThat(records(fetcher.fetch(() -> false))).hasSize(5);

        BinlogRecord[] three = {end(5000), end(5001), end(5002)};
        stream.deliver(three);
        AtomicInteger asked = new AtomicInteger();
        assertThat(records(fetcher.fetch(() -> asked.incrementAndGet() > 1)))
                .as("woken up after the second record")
                .containsExactly(three[0], three[1]);
    }

    @Test
    void aHaltedStreamFailsTheFetch() {
        fetcher.start(new BinlogSplit(List.of(TABLE), START));
        CapstanHaltException halt = new CapstanHaltException(HaltReason.DATA_GAP, "purged");
        mysql.streams.get(0).fail(halt);
        assertThatThrownBy(() -> fetcher.fetch(() -> false)).isSameAs(halt);
    }

    @Test
    void aRefusedStartFailsAndStreamsNothing() {
        CapstanHaltException halt =
                new CapstanHaltException(HaltReason.SOURCE_IDENTITY_MISMATCH, "foreign");
        mysql.binlogRefuses(halt);
        assertThatThrownBy(() -> fetcher.start(new BinlogSplit(List.of(TABLE), START)))
                .isSameAs(halt);
        assertThat(fetcher.isStreaming()).isFalse();
        assertThat(mysql.streams).hasSize(1);
        assertThat(mysql.streams.get(0).closed()).as("the refused stream is closed").isTrue();
    }

    @Test
    void aReaderStreamsOneBinlogSplitAtMost() {
        fetcher.start(new BinlogSplit(List.of(TABLE), START));
        assertThatThrownBy(() -> fetcher.start(new BinlogSplit(List.of(TABLE), START)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(mysql.streams).hasSize(1);
    }

    @Test
    void closeClosesTheStreamAndThePollersConnection() throws Exception {
        mysql.gtids(GtidSet.parse(UUID + ":1-30"), GtidSet.empty());
        fetcher.start(new BinlogSplit(List.of(TABLE), START));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (mysql.calls(FakeMySql.GTID_EXECUTED) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(mysql.openConnections()).as("the poller's").isEqualTo(1);
        fetcher.close();
        assertThat(mysql.streams.get(0).closed()).isTrue();
        assertThat(mysql.openConnections()).isZero();
        assertThat(fetcher.isStreaming()).isFalse();
    }

    @Test
    void aStopRequestEndsTheSplitAfterThePartialTransactionsEnd() throws Exception {
        BinlogBoundaryStop stop = new BinlogBoundaryStop();
        BinlogFetcher stopping =
                new BinlogFetcher(mysql, Duration.ofHours(1), ReaderFixtures.metrics(), stop);
        stop.request();
        stopping.start(
                new BinlogSplit(
                        List.of(TABLE), BinlogStartPosition.of(START.processed(), gtid(11), 1)));
        FakeBinlogStream stream = mysql.streams.get(0);
        BinlogRecord[] partial = {insert(11, 0, 1, "a"), insert(11, 1, 2, "b"), end(11)};
        stream.deliver(partial);
        stream.deliver(insert(12, 0, 3, "c"), end(12));
        ElementBatch batch = stopping.fetch(() -> false);
        assertThat(records(batch)).as("up to the boundary, not past it").containsExactly(partial);
        assertThat(batch.finishedSplits()).isEmpty();
        assertThat(stream.closed()).isFalse();

        ElementBatch last = stopping.fetch(() -> false);
        assertThat(records(last)).isEmpty();
        assertThat(last.finishedSplits()).containsExactly(BinlogSplit.SPLIT_ID);
        assertThat(stream.closed()).as("the stream is closed at the boundary").isTrue();
        assertThat(stopping.isStreaming()).isFalse();
        stopping.close();
    }

    @Test
    void aStopRequestAtABoundaryEndsTheSplitAtOnce() throws Exception {
        BinlogBoundaryStop stop = new BinlogBoundaryStop();
        BinlogFetcher stopping =
                new BinlogFetcher(mysql, Duration.ofHours(1), ReaderFixtures.metrics(), stop);
        stopping.start(new BinlogSplit(List.of(TABLE), START));
        FakeBinlogStream stream = mysql.streams.get(0);
        stream.deliver(insert(11, 0, 1, "a"));
        assertThat(records(stopping.fetch(() -> false))).hasSize(1);
        stop.request(); // inside transaction 11 now
        stream.deliver(end(11), insert(12, 0, 3, "c"), end(12));
        assertThat(records(stopping.fetch(() -> false))).containsExactly(end(11));
        assertThat(stopping.fetch(() -> false).finishedSplits())
                .containsExactly(BinlogSplit.SPLIT_ID);
        assertThat(stream.closed()).isTrue();
        stopping.close();
    }
}
