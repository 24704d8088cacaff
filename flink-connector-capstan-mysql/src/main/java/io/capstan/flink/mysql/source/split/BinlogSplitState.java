package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Progress on the binlog split: the set of transactions fully processed, for the transaction in
 * progress its GTID and how many of its captured row changes were handled (emitted, or suppressed
 * by the gate: the streamer's resume skip counts captured rows, so both must count), and the cursor
 * gate, whose tables retire as the processed set grows.
 */
@Internal
public final class BinlogSplitState extends CapstanSplitState {

    private final BinlogSplit split;
    private final List<TableId> tables;
    private GtidSet processed;
    @Nullable private Gtid partialTransaction;
    private int rowsEmitted;
    private CursorGate gate;

    public BinlogSplitState(BinlogSplit split) {
        this.split = split;
        this.tables = new ArrayList<>(split.tables());
        this.gate = split.gate().retire(split.start().processed());
        BinlogStartPosition start = split.start();
        this.processed = start.processed();
        this.partialTransaction = start.partialGtid();
        this.rowsEmitted = start.partialGtid() == null ? 0 : start.rowsAlreadyEmitted();
    }

    /**
     * Whether the row change at {@code index} of transaction {@code gtid} was already emitted
     * before the position this state describes: the transaction is processed, or it is the partial
     * transaction and at least {@code index + 1} of its rows were emitted.
     */
    public boolean alreadyEmitted(Gtid gtid, int index) {
        if (gtid.equals(partialTransaction)) {
            return index < rowsEmitted;
        }
        return processed.contains(gtid);
    }

    /**
     * Records that the row change at {@code index} of {@code gtid} was emitted.
     *
     * @throws IllegalStateException when rows of another transaction are still open or the index is
     *     not the next one: the stream broke its order, and continuing could lose or repeat rows
     */
    public void rowEmitted(Gtid gtid, int index) {
        if (partialTransaction != null && !partialTransaction.equals(gtid)) {
            throw new IllegalStateException(
                    "row of transaction "
                            + BinlogPositionAxis.readable(gtid)
                            + " arrived before transaction "
                            + partialTransaction
                            + " ended");
        }
        int expected = partialTransaction == null ? 0 : rowsEmitted;
        if (index != expected) {
            throw new IllegalStateException(
                    "row "
                            + index
                            + " of transaction "
                            + BinlogPositionAxis.readable(gtid)
                            + " arrived, expected row "
                            + expected);
        }
        partialTransaction = gtid;
        rowsEmitted = index + 1;
    }

    /**
     * Records that {@code gtid} ended: it joins the processed set and nothing is partial. The end
     * of a transaction already processed changes nothing (defence in depth against a replay).
     */
    public void transactionEnded(Gtid gtid) {
        transactionEnded(new TransactionEnd(gtid, 0));
    }

    /**
     * Records that {@code gtid} ended; when it is an XA transaction's {@code XA COMMIT} or {@code
     * XA ROLLBACK}, its prepared part {@code prepared} joins the processed set with it, at once: a
     * checkpoint never holds one without the other (docs/adr/0008).
     */
    public void transactionEnded(Gtid gtid, @Nullable Gtid prepared) {
        transactionEnded(new TransactionEnd(gtid, 0, prepared));
    }

    /**
     * Records {@code end}: its transaction (and the XA part it ends, and on a server without GTIDs
     * the positions read, docs/adr/0012) joins the processed set, nothing is partial.
     */
    public void transactionEnded(TransactionEnd end) {
        if (end.alreadyIn(processed)) {
            return;
        }
        if (partialTransaction != null && !partialTransaction.equals(end.gtid())) {
            throw new IllegalStateException(
                    "transaction "
                            + end.gtid()
                            + " ended while "
                            + partialTransaction
                            + " was open");
        }
        processed = end.appliedTo(processed);
        partialTransaction = null;
        rowsEmitted = 0;
        if (gate.chunkCount() > 0) {
            gate = gate.retire(processed);
        }
    }

    /**
     * Records that {@code table}, created while streaming, is captured from here on: it joins the
     * split's tables, checkpointed with the position. A table already listed changes nothing.
     */
    public void tableCaptured(TableId table) {
        if (!tables.contains(table)) {
            tables.add(table);
        }
    }

    /** The captured tables as they stand: the split's, then those created while streaming. */
    public List<TableId> tables() {
        return List.copyOf(tables);
    }

    /** The gate as it stands: tables retire once the processed set holds all their chunks' G. */
    public CursorGate gate() {
        return gate;
    }

    public GtidSet processed() {
        return processed;
    }

    @Nullable
    public Gtid partialTransaction() {
        return partialTransaction;
    }

    public int rowsEmitted() {
        return rowsEmitted;
    }

    /** Where a restore resumes: this state as a start position. */
    public BinlogStartPosition position() {
        return BinlogStartPosition.of(processed, partialTransaction, rowsEmitted);
    }

    @Override
    public SplitKind kind() {
        return SplitKind.BINLOG;
    }

    @Override
    public BinlogSplit toSplit() {
        return new BinlogSplit(tables, position(), gate, split.origin());
    }

    @Override
    public BinlogSplitState asBinlogSplitState() {
        return this;
    }

    @Override
    public String toString() {
        return "BinlogSplitState{processed="
                + BinlogPositionAxis.readable(processed)
                + ", partial="
                + BinlogPositionAxis.readable(partialTransaction)
                + ", rowsEmitted="
                + rowsEmitted
                + ", gate="
                + gate
                + "}";
    }
}
