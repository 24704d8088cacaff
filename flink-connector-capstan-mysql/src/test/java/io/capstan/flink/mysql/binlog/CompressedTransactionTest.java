package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.TruncateHandling;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis.Position;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.capstan.flink.mysql.binlog.Events.UUID_A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compressed transactions (TRANSACTION_PAYLOAD, MySQL 8.0.20+ with
 * binlog_transaction_compression=ON) through the streamer's deserializer and the assembler. The
 * test server (MySQL 8.0.15) cannot write them, so the payloads are built here around events
 * captured from that server: a TABLE_MAP and a WRITE_ROWS of 6 rows for {@code CREATE TABLE p.f (id
 * int primary key, f float, d double, f2 float(10,3), y year, t time(6), b bit(10), bi binary(4), c
 * char(5) charset latin1)} (binlog_row_metadata=FULL, checksums stripped as inside a payload), plus
 * a constructed BEGIN, an uncaptured table's rows and an XID. As on the server, the GTID event
 * stays outside the payload.
 */
class CompressedTransactionTest {

    private static final TableId F = TableId.of("p", "f");
    private static final long UNCAPTURED = 86;
    private static final long COMMIT = 1_700_000_000_123_456L;

    /** One stream: its schema cache, deserializer, assembler and output. */
    private static final class Stream {
        final BinlogStreamerMetrics metrics = new BinlogStreamerMetrics();
        final TableSchemaCache tables = new TableSchemaCache(F::equals, metrics);
        final EventDeserializer deserializer =
                BinlogClientFactory.eventDeserializer(tables, metrics);
        final List<BinlogRecord> out = new ArrayList<>();
        final List<String> ddl = new ArrayList<>();
        final TransactionAssembler assembler;

        /** In front of the assembler on a server without GTIDs; null on GTIDs. */
        final PositionModeEvents positions;

        int refuseAfter =
                Integer.MAX_VALUE; // the sink refuses (closing) once this many records are queued

        Stream(BinlogStartPosition start) throws InterruptedException {
            assembler =
                    new TransactionAssembler(
                            tables,
                            start,
                            null,
                            metrics,
                            r -> {
                                if (out.size() >= refuseAfter) {
                                    throw new InterruptedException("closing");
                                }
                                out.add(r);
                            },
                            (db, sql, g) -> ddl.add(sql),
                            TruncateHandling.HALT,
                            CapstanMySqlOptions.BINLOG_XA_MAX_PENDING_ROWS.defaultValue(),
                            false);
            positions = PositionModeEvents.inFrontOf(assembler, start);
            FormatDescriptionEventData fde = new FormatDescriptionEventData();
            fde.setServerVersion("8.0.15");
            assembler.onEvent(Events.event(EventType.FORMAT_DESCRIPTION, fde));
        }

        /** One event as the stream hands it on: through the position mode's front when set. */
        void onEvent(Event e) throws InterruptedException {
            if (positions != null) {
                positions.onEvent(e);
            } else {
                assembler.onEvent(e);
            }
        }

        /**
         * Decodes {@code bytes} event by event, each fed to the assembler before the next is
         * decoded.
         */
        void feed(byte[] bytes) throws IOException, InterruptedException {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes);
            for (Event e = deserializer.nextEvent(in); e != null; e = deserializer.nextEvent(in)) {
                onEvent(e);
            }
        }

        void gtid(long n) throws InterruptedException {
            assembler.onEvent(Events.gtid(UUID_A, n, COMMIT));
        }

        String summary() {
            return out.stream()
                    .map(
                            r ->
                                    r instanceof RowChange
                                            ? ((RowChange) r).operation()
                                                    + "#"
                                                    + ((RowChange) r).indexInTransaction()
                                            : "END@" + r.gtid().transactionId())
                    .collect(Collectors.joining(" "));
        }
    }

    /** BEGIN, an uncaptured table's rows, the captured p.f rows, XID: no checksums. */
    private static byte[] transactionEvents() {
        return new EventBytes()
                .query("p", "BEGIN")
                .tableMap(UNCAPTURED, "p", "other", 3)
                .writeRows(UNCAPTURED, 3, 4)
                .raw(EventBytes.capturedFloatTableEvents())
                .xid(9)
                .bytes();
    }

    private static byte[] compressed(boolean zstd) {
        return new EventBytes().transactionPayload(transactionEvents(), zstd).bytes();
    }

    @Test
    void aCompressedTransactionStreamsExactlyLikeThePlainOne() throws Exception {
        Stream plain = new Stream(BinlogStartPosition.of(GtidSet.parse("")));
        plain.gtid(1);
        plain.feed(transactionEvents());

        for (boolean zstd : new boolean[] {true, false}) {
            Stream packed = new Stream(BinlogStartPosition.of(GtidSet.parse("")));
            packed.gtid(1);
            packed.feed(compressed(zstd));

            assertThat(packed.summary())
                    .isEqualTo("INSERT#0 INSERT#1 INSERT#2 INSERT#3 INSERT#4 INSERT#5 END@1");
            assertThat(packed.summary()).isEqualTo(plain.summary());
            for (int i = 0; i < 6; i++) {
                RowChange p = (RowChange) plain.out.get(i);
                RowChange c = (RowChange) packed.out.get(i);
                assertThat(c.tableId()).isEqualTo(F);
                assertThat(c.gtid()).isEqualTo(Gtid.of(UUID_A, 1));
                assertThat(c.schema()).isEqualTo(p.schema());
                assertThat(c.after()).isEqualTo(p.after());
            }
            assertThat(((RowChange) packed.out.get(0)).after().getInt(4))
                    .isEqualTo(2020); // a decoded value
            assertThat(packed.assembler.processed()).isEqualTo(GtidSet.parse(UUID_A + ":1"));
            // The uncaptured table's rows inside the payload were skipped, not decoded.
            assertThat(packed.metrics.uncapturedRowsEventsSkipped()).isEqualTo(1);
            assertThat(packed.metrics.transactionsSeen()).isEqualTo(1);
            assertThat(packed.ddl).isEmpty(); // the BEGIN inside the payload is not DDL
        }
    }

    @Test
    void resumeAndReconnectInsideACompressedTransactionSkipExactlyTheRowsAlreadyEmitted()
            throws Exception {
        // Restored from a checkpoint taken after 4 of its rows.
        Stream restored =
                new Stream(BinlogStartPosition.of(GtidSet.parse(""), Gtid.of(UUID_A, 1), 4));
        restored.gtid(1);
        restored.feed(compressed(true));
        assertThat(restored.summary()).isEqualTo("INSERT#4 INSERT#5 END@1");
        assertThat(restored.metrics.rowChangesSkippedOnResume()).isEqualTo(4);

        // The connection drops while the consumer is behind: 2 rows queued, the third refused.
        Stream s = new Stream(BinlogStartPosition.of(GtidSet.parse("")));
        s.refuseAfter = 2;
        s.gtid(1);
        assertThatThrownBy(() -> s.feed(compressed(true))).isInstanceOf(InterruptedException.class);
        BinlogStartPosition resume = s.assembler.resumePosition();
        assertThat(resume)
                .isEqualTo(BinlogStartPosition.of(GtidSet.parse(""), Gtid.of(UUID_A, 1), 2));
        s.assembler.restartFrom(resume);
        s.refuseAfter = Integer.MAX_VALUE;
        s.gtid(1); // the server sends the transaction again, from its GTID event
        s.feed(compressed(true));
        assertThat(s.summary())
                .isEqualTo("INSERT#0 INSERT#1 INSERT#2 INSERT#3 INSERT#4 INSERT#5 END@1");
    }

    /**
     * On a server without GTIDs the transaction is named by its start event's position and, as the
     * payload's inner events have no position of their own, its end moves the processed set to the
     * payload event's end: a checkpoint there resumes at the next event, never inside the payload.
     * A restore drops the transaction whole, or skips the rows it already emitted.
     */
    @Test
    void onBinlogPositionsACompressedTransactionEndsWhereItsPayloadEnds() throws Exception {
        BinlogPositionAxis axis = BinlogPositionAxis.of(UUID_A);
        Position txnStart = new Position(3, 1_000);
        long payloadEnd = 1_000 + 80 + 600;
        BinlogStartPosition start = BinlogStartPosition.of(axis.before(txnStart));

        Stream s = new Stream(start);
        feedPositioned(s, txnStart, payloadEnd);
        assertThat(s.summary())
                .isEqualTo(
                        "INSERT#0 INSERT#1 INSERT#2 INSERT#3 INSERT#4 INSERT#5 END@"
                                + BinlogPositionAxis.ordinal(txnStart));
        Gtid txn = axis.transactionAt(txnStart);
        assertThat(((RowChange) s.out.get(0)).gtid()).isEqualTo(txn);
        GtidSet afterPayload = axis.before(new Position(3, payloadEnd));
        assertThat(s.assembler.processed()).isEqualTo(afterPayload);
        assertThat(axis.firstMissing(s.assembler.processed()))
                .isEqualTo(new Position(3, payloadEnd));

        Stream again = new Stream(BinlogStartPosition.of(afterPayload));
        feedPositioned(again, txnStart, payloadEnd);
        assertThat(again.summary()).as("already processed: dropped whole").isEmpty();

        Stream inside = new Stream(BinlogStartPosition.of(axis.before(txnStart), txn, 4));
        feedPositioned(inside, txnStart, payloadEnd);
        assertThat(inside.summary()).startsWith("INSERT#4 INSERT#5 END@");
        assertThat(inside.assembler.processed()).isEqualTo(afterPayload);
    }

    /**
     * ROTATE into binlog.000003, the transaction's ANONYMOUS_GTID event at {@code txnStart} (80
     * bytes) and its compressed payload after it, ending at {@code payloadEnd}.
     */
    private static void feedPositioned(Stream s, Position txnStart, long payloadEnd)
            throws Exception {
        RotateEventData rotate = new RotateEventData();
        rotate.setBinlogFilename("binlog.000003");
        rotate.setBinlogPosition(4);
        s.onEvent(Events.event(EventType.ROTATE, rotate));
        Event anonymous =
                Events.event(
                        EventType.ANONYMOUS_GTID,
                        new GtidEventData(
                                new MySqlGtid(new java.util.UUID(0, 0), 0),
                                (byte) 0,
                                0,
                                0,
                                COMMIT,
                                COMMIT,
                                0,
                                0,
                                0));
        positioned(anonymous, txnStart.offset(), txnStart.offset() + 80);
        s.onEvent(anonymous);
        ByteArrayInputStream in = new ByteArrayInputStream(compressed(true));
        Event payload = s.deserializer.nextEvent(in);
        positioned(payload, txnStart.offset() + 80, payloadEnd);
        s.onEvent(payload);
    }

    private static void positioned(Event e, long from, long to) {
        EventHeaderV4 h = e.getHeader();
        h.setEventLength(to - from);
        h.setNextPosition(to);
    }

    @Test
    void rowsOfAnUnmappedTableIdInsideAPayloadHalt() throws Exception {
        Stream s = new Stream(BinlogStartPosition.of(GtidSet.parse("")));
        s.gtid(1);
        byte[] inner = new EventBytes().query("p", "BEGIN").writeRows(4242, 3, 1).xid(1).bytes();
        assertThatThrownBy(() -> s.feed(new EventBytes().transactionPayload(inner, true).bytes()))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.UNMAPPED_TABLE_ID));
        assertThat(s.assembler.processed()).isEqualTo(GtidSet.parse(""));
    }

    @Test
    void aCorruptPayloadFailsToDecode() throws Exception {
        Stream s = new Stream(BinlogStartPosition.of(GtidSet.parse("")));
        // In the streamer the binlog client reports this as a deserialization failure:
        // undecodable_column.
        assertThatThrownBy(() -> s.feed(new EventBytes().corruptTransactionPayload().bytes()))
                .isInstanceOf(IOException.class);
        assertThat(s.out).isEmpty();
    }
}
