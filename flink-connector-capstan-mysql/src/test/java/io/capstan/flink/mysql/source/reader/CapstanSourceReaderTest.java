package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.Operation;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.FakeMySql;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.source.TestChanges;
import io.capstan.flink.mysql.source.event.BinlogPausedEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitPauseEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitRestoredEvent;
import io.capstan.flink.mysql.source.event.BinlogSplitResumeEvent;
import io.capstan.flink.mysql.source.event.ChunksAcknowledgedEvent;
import io.capstan.flink.mysql.source.event.ChunksCompletedEvent;
import io.capstan.flink.mysql.source.event.ChunksReopenedEvent;
import io.capstan.flink.mysql.source.event.ReaderCheckpointingEvent;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.CapstanSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.capstan.flink.mysql.source.TestChanges.UUID;
import static io.capstan.flink.mysql.source.reader.ReaderFixtures.TABLE;
import static io.capstan.flink.mysql.source.reader.ReaderFixtures.chunk;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source reader against the fake server, as Flink drives it: splits in, records out, chunk
 * completions reported until acknowledged and kept in its checkpointed state meanwhile.
 */
class CapstanSourceReaderTest {

    private static final GtidSet G = GtidSet.parse(UUID + ":1-20");

    private final FakeMySql mysql = new FakeMySql().table(TABLE, 12);
    private final TestingReaderContext context = new TestingReaderContext();
    private final TestingReaderOutput<String> output = new TestingReaderOutput<>();
    private final CapstanSourceReader<String> reader =
            CapstanSourceReader.create(
                    FakeMySql.sourceConfig(StartupOptions.initial(), 5, "db.t"),
                    mysql,
                    new GatedEmitterTest.Ops(),
                    context);

    CapstanSourceReaderTest() {
        mysql.gtids(G, GtidSet.empty());
    }

    @AfterEach
    void close() throws Exception {
        reader.close();
        assertThat(mysql.openConnections()).as("every connection released").isZero();
    }

    /** Polls as the task does until {@code done}, waiting on availability in between. */
    private void pollUntil(String what, BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out polling for "
                                + what
                                + "; emitted "
                                + output.getEmittedRecords());
            }
            reader.pollNext(output);
            if (!done.getAsBoolean()) {
                try {
                    reader.isAvailable().get(10, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // poll again
                }
            }
        }
    }

    private <E extends SourceEvent> List<E> sent(Class<E> type) {
        return context.getSentEvents().stream().filter(type::isInstance).map(type::cast).toList();
    }

    private List<String> completedIds() {
        return sent(ChunksCompletedEvent.class).stream()
                .flatMap(e -> e.completed().stream())
                .map(SnapshotChunkSplit::splitId)
                .toList();
    }

    @Test
    void readsChunksReportsTheirCompletionAndKeepsItUntilAcknowledged() throws Exception {
        reader.start();
        assertThat(sent(ReaderCheckpointingEvent.class)).hasSize(1);
        assertThat(context.getNumSplitRequests()).isEqualTo(1);

        reader.addSplits(List.of(chunk(TABLE, 0, null, 6L), chunk(TABLE, 1, 6L, null)));
        pollUntil("both chunks", () -> completedIds().size() == 2);
        assertThat(output.getEmittedRecords())
                .containsExactly(
                        "r:->1", "r:->2", "r:->3", "r:->4", "r:->5", "r:->6", "r:->7", "r:->8",
                        "r:->9", "r:->10", "r:->11", "r:->12");
        assertThat(completedIds()).containsExactly("db.t#0", "db.t#1");
        SnapshotChunkSplit reported = sent(ChunksCompletedEvent.class).get(0).completed().get(0);
        assertThat(reported.completion()).isEqualTo(new ChunkCompletion(G, 5));
        assertThat(context.getNumSplitRequests())
                .as("asks for more as chunks finish")
                .isGreaterThan(1);

        // until acknowledged, completions are part of the checkpointed state
        assertThat(reader.snapshotState(1))
                .extracting(CapstanSplit::splitId)
                .containsExactly("db.t#0", "db.t#1");
        reader.handleSourceEvents(new ChunksAcknowledgedEvent(List.of("db.t#0")));
        assertThat(reader.snapshotState(2))
                .extracting(CapstanSplit::splitId)
                .containsExactly("db.t#1");
    }

    @Test
    void aRestoreReportsCompletedChunksAgainAndUnreadOnesAsReopened() throws Exception {
        SnapshotChunkSplit done =
                chunk(TABLE, 0, null, 6L).withCompletion(new ChunkCompletion(G, 5));
        SnapshotChunkSplit unread = chunk(TABLE, 1, 6L, null);
        reader.addSplits(List.of(done, unread)); // restored splits come before start()
        assertThat(context.getSentEvents()).isEmpty();

        reader.start();
        assertThat(sent(ChunksReopenedEvent.class))
                .singleElement()
                .satisfies(e -> assertThat(e.splitIds()).containsExactly("db.t#1"));
        assertThat(completedIds()).containsExactly("db.t#0");

        pollUntil("the unread chunk", () -> completedIds().size() == 2);
        assertThat(output.getEmittedRecords())
                .as("the completed chunk is not read again")
                .hasSize(7);
    }

    @Test
    void streamsTheBinlogSplitAndCheckpointsItsPosition() throws Exception {
        Gtid txn = Gtid.of(UUID, 21);
        mysql.binlogBacklog(
                new RowChange(
                        TABLE,
                        TestChanges.SCHEMA,
                        Operation.INSERT,
                        null,
                        FakeMySql.row(40, "x"),
                        txn,
                        0,
                        1L),
                new TransactionEnd(txn, 1L));
        reader.start();
        reader.addSplits(List.of(new BinlogSplit(List.of(TABLE), BinlogStartPosition.of(G))));
        pollUntil("the binlog's insert", () -> !output.getEmittedRecords().isEmpty());
        assertThat(output.getEmittedRecords()).containsExactly("c:->40");
        assertThat(mysql.streams.get(0).start.processed()).isEqualTo(G);

        pollUntil(
                "the transaction end",
                () ->
                        reader.snapshotState(3)
                                .get(0)
                                .asBinlogSplit()
                                .start()
                                .processed()
                                .equals(G.union(GtidSet.of(txn))));
    }

    private static final TableId OTHER = TableId.of("db", "other");

    private static RowChange insertInto(TableId table, Gtid txn, int index, long id) {
        return new RowChange(
                table,
                TestChanges.SCHEMA,
                Operation.INSERT,
                null,
                FakeMySql.row(id, "x"),
                txn,
                index,
                1L);
    }

    @Test
    void aRestoredBinlogSplitStreamsOnlyOnceTheEnumeratorAnswers() throws Exception {
        BinlogSplit restored = new BinlogSplit(List.of(TABLE), BinlogStartPosition.of(G));
        reader.addSplits(List.of(restored)); // before start(): restored from a checkpoint
        reader.start();
        assertThat(sent(BinlogSplitRestoredEvent.class))
                .singleElement()
                .satisfies(e -> assertThat(e.tables()).containsExactly(TABLE));
        assertThat(context.getNumSplitRequests()).as("the binlog split is its last").isZero();
        reader.pollNext(output);
        Thread.sleep(50);
        reader.pollNext(output);
        assertThat(mysql.streams).as("no stream before the answer").isEmpty();
        assertThat(reader.snapshotState(1)).containsExactly(restored);

        reader.handleSourceEvents(new BinlogSplitResumeEvent(List.of(), null));
        pollUntil("the stream", () -> !mysql.streams.isEmpty());
        assertThat(mysql.streams.get(0).tables).containsExactly(TABLE);
        assertThat(reader.snapshotState(2)).containsExactly(restored);
    }

    @Test
    void tablesLeftOutOfTheListLeaveARestoredSplitAtItsBoundary() throws Exception {
        CursorGate gate = GatedEmitterTest.GATE;
        reader.addSplits(
                List.of(new BinlogSplit(List.of(TABLE, OTHER), BinlogStartPosition.of(G), gate)));
        reader.start();
        reader.handleSourceEvents(new BinlogSplitResumeEvent(List.of(OTHER), null));
        pollUntil("the stream", () -> !mysql.streams.isEmpty());
        assertThat(mysql.streams.get(0).tables).containsExactly(TABLE);
        BinlogSplit checkpointed = reader.snapshotState(1).get(0).asBinlogSplit();
        assertThat(checkpointed.tables()).containsExactly(TABLE);
        assertThat(checkpointed.start()).isEqualTo(BinlogStartPosition.of(G));
    }

    @Test
    void insideAPartialTransactionTablesLeaveOnlyAtItsEnd() throws Exception {
        Gtid partial = Gtid.of(UUID, 21);
        Gtid next = Gtid.of(UUID, 22);
        mysql.binlogBacklog(
                insertInto(TABLE, partial, 0, 40), // emitted before the checkpoint
                insertInto(OTHER, partial, 1, 41),
                new TransactionEnd(partial, 1L),
                insertInto(TABLE, next, 0, 42),
                new TransactionEnd(next, 1L));
        reader.addSplits(
                List.of(
                        new BinlogSplit(
                                List.of(TABLE, OTHER), BinlogStartPosition.of(G, partial, 1))));
        reader.start();
        reader.handleSourceEvents(new BinlogSplitResumeEvent(List.of(OTHER), null));
        pollUntil("the next transaction", () -> output.getEmittedRecords().size() == 2);
        assertThat(output.getEmittedRecords())
                .as("the partial transaction ends with its tables; no row twice")
                .containsExactly("c:->41", "c:->42");
        assertThat(mysql.streams).hasSize(2);
        assertThat(mysql.streams.get(0).tables).containsExactlyInAnyOrder(TABLE, OTHER);
        assertThat(mysql.streams.get(0).closed()).isTrue();
        assertThat(mysql.streams.get(1).tables).containsExactly(TABLE);
        assertThat(mysql.streams.get(1).start)
                .isEqualTo(BinlogStartPosition.of(G.union(GtidSet.of(partial))));
        assertThat(reader.snapshotState(5).get(0).asBinlogSplit().tables()).containsExactly(TABLE);
    }

    @Test
    void aPausedSplitStopsAtTheBoundaryReadsChunksAndResumesWithTheAddedTables() throws Exception {
        Gtid partial = Gtid.of(UUID, 21);
        Gtid next = Gtid.of(UUID, 22);
        GtidSet atPause = G.union(GtidSet.of(partial));
        mysql.binlogBacklog(
                insertInto(TABLE, partial, 0, 40), // emitted before the checkpoint
                insertInto(TABLE, partial, 1, 41),
                new TransactionEnd(partial, 1L),
                insertInto(TABLE, next, 0, 42),
                new TransactionEnd(next, 1L));
        reader.addSplits(
                List.of(new BinlogSplit(List.of(TABLE), BinlogStartPosition.of(G, partial, 1))));
        reader.start();
        assertThat(context.getNumSplitRequests()).isZero();
        reader.handleSourceEvents(new BinlogSplitPauseEvent(List.of()));
        pollUntil("the pause", () -> !sent(BinlogPausedEvent.class).isEmpty());
        assertThat(sent(BinlogPausedEvent.class).get(0).processed()).isEqualTo(atPause);
        assertThat(output.getEmittedRecords())
                .as("the partial transaction ends, nothing past it")
                .containsExactly("c:->41");
        assertThat(mysql.streams.get(0).closed()).isTrue();
        assertThat(context.getNumSplitRequests()).as("asks for the added chunks").isEqualTo(1);
        assertThat(reader.snapshotState(2))
                .containsExactly(new BinlogSplit(List.of(TABLE), BinlogStartPosition.of(atPause)));

        reader.handleSourceEvents(
                new BinlogSplitResumeEvent(
                        List.of(),
                        new BinlogSplit(
                                List.of(OTHER),
                                BinlogStartPosition.of(atPause),
                                CursorGate.empty())));
        pollUntil("the resumed stream's row", () -> output.getEmittedRecords().size() == 2);
        assertThat(output.getEmittedRecords()).containsExactly("c:->41", "c:->42");
        assertThat(mysql.streams.get(1).tables).containsExactlyInAnyOrder(TABLE, OTHER);
        assertThat(mysql.streams.get(1).start).isEqualTo(BinlogStartPosition.of(atPause));
    }

    @Test
    void noMoreSplitsEndsTheReaderOnceItsChunksAreRead() throws Exception {
        reader.start();
        reader.addSplits(List.of(chunk(TABLE, 0, null, null)));
        reader.notifyNoMoreSplits();
        pollUntil(
                "the end of input",
                () -> {
                    try {
                        return reader.pollNext(output)
                                == org.apache.flink.core.io.InputStatus.END_OF_INPUT;
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
        assertThat(output.getEmittedRecords()).hasSize(12);
    }
}
