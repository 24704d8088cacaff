package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.BinlogRecord;
import io.capstan.flink.mysql.event.RowChange;
import io.capstan.flink.mysql.event.TransactionEnd;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.GateKeys;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.KeyColumn;
import io.capstan.flink.mysql.snapshot.key.KeyExtractor;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * On the fetcher thread, before the gate: asks the server for the weights of the collated key
 * columns of every row change of a gated table whose key needs them, one batch of lookups per fetch
 * (one statement per collation and up to {@code JdbcKeyWeights.PER_STATEMENT} distinct texts), and
 * attaches the weighed keys ({@link GateKeys}) to the change.
 *
 * <p>It follows the gate's retirement itself, by the same rule and from the same split as the
 * emitter's state (a table retires once the processed set holds every chunk's G), so it asks while
 * and only while the emitter will gate the table; once no table needs weights it asks nothing, and
 * its connection is not even opened when none ever did. Should the two ever disagree, the emitter
 * meets a collated key without weights and fails (never a guess).
 */
final class GateKeyWeigher implements AutoCloseable {

    private final Supplier<JdbcProxy> connect;
    private final CapstanReaderMetrics metrics;
    private CursorGate gate;
    private GtidSet processed;

    /** The gated tables whose key needs weights: the only per-row lookup, by table. */
    private Map<TableId, Weighed> weighedTables;

    @Nullable private JdbcProxy jdbc;

    GateKeyWeigher(BinlogSplit split, Supplier<JdbcProxy> connect, CapstanReaderMetrics metrics) {
        this.connect = connect;
        this.metrics = metrics;
        this.processed = split.start().processed();
        this.gate = split.gate().retire(processed);
        this.weighedTables = weighedTables(gate);
    }

    private static Map<TableId, Weighed> weighedTables(CursorGate gate) {
        Map<TableId, Weighed> out = new HashMap<>();
        for (TableId t : gate.gatedTables()) {
            ChunkKey key = gate.key(t).orElseThrow();
            if (key.needsWeights()) {
                out.put(t, new Weighed(key, KeyExtractor.of(key)));
            }
        }
        return out;
    }

    /** The elements of {@code records}, row changes needing weights with their weighed keys. */
    List<SourceElement> elements(List<BinlogRecord> records) throws IOException {
        List<SourceElement> out = new ArrayList<>(records.size());
        if (weighedTables.isEmpty()) { // the steady state: no gated table needs weights
            for (BinlogRecord r : records) {
                out.add(SourceElement.of(r));
            }
            return out;
        }
        List<Pending> pending = new ArrayList<>();
        Map<KeyCollation, Map<StringData, byte[]>> texts = new LinkedHashMap<>();
        for (BinlogRecord r : records) {
            if (r instanceof TransactionEnd end) {
                transactionEnded(end);
            } else if (r instanceof RowChange c) {
                Weighed w = weighedTables.get(c.tableId());
                if (w != null) {
                    pending.add(new Pending(out.size(), c, w));
                    collect(w, c.before(), texts);
                    collect(w, c.after(), texts);
                }
            }
            out.add(SourceElement.of(r));
        }
        if (!pending.isEmpty()) {
            weigh(texts);
            for (Pending p : pending) {
                GateKeys keys =
                        new GateKeys(
                                weighed(p.table, p.change.before(), texts),
                                weighed(p.table, p.change.after(), texts));
                out.set(p.index, SourceElement.of(p.change, keys));
            }
        }
        return out;
    }

    /** As BinlogSplitState.transactionEnded: a new transaction joins the set, tables may retire. */
    private void transactionEnded(TransactionEnd end) {
        if (!end.alreadyIn(processed)) {
            processed = end.appliedTo(processed);
            CursorGate retired = gate.retire(processed);
            if (retired != gate) {
                gate = retired;
                weighedTables = weighedTables(gate);
            }
        }
    }

    /** Adds the texts of {@code image}'s collated key columns (as Flink holds them) to weigh. */
    private void collect(
            Weighed w, @Nullable RowData image, Map<KeyCollation, Map<StringData, byte[]>> texts) {
        if (image == null) {
            return;
        }
        for (int i = 0; i < w.key.arity(); i++) {
            KeyCollation collation = w.key.column(i).collation();
            if (collation != null) {
                texts.computeIfAbsent(collation, k -> new LinkedHashMap<>())
                        .put(w.extractor.text(image, i), null);
            }
        }
    }

    /** One lookup per collation; the texts are decoded once, here. */
    private void weigh(Map<KeyCollation, Map<StringData, byte[]>> texts) throws IOException {
        if (jdbc == null) {
            jdbc = connect.get();
        }
        for (Map.Entry<KeyCollation, Map<StringData, byte[]>> e : texts.entrySet()) {
            KeyCollation collation = e.getKey();
            List<StringData> distinct = new ArrayList<>(e.getValue().keySet());
            List<String> decoded = new ArrayList<>(distinct.size());
            for (StringData text : distinct) {
                String s = text.toString();
                if (!collation.decodesLosslessly() && s.indexOf('\uFFFD') >= 0) {
                    throw undecodable(collation);
                }
                decoded.add(s);
            }
            List<byte[]> weights = jdbc.keyWeights(collation, decoded);
            for (int i = 0; i < distinct.size(); i++) {
                e.getValue().put(distinct.get(i), weights.get(i));
            }
            metrics.gateKeysWeighed(distinct.size());
        }
    }

    @Nullable
    private static KeyTuple weighed(
            Weighed w, @Nullable RowData image, Map<KeyCollation, Map<StringData, byte[]>> texts) {
        if (image == null) {
            return null;
        }
        byte[][] weights = new byte[w.key.arity()][];
        for (int i = 0; i < weights.length; i++) {
            KeyCollation collation = w.key.column(i).collation();
            if (collation != null) {
                weights[i] = texts.get(collation).get(w.extractor.text(image, i));
            }
        }
        return w.extractor.extract(image, weights);
    }

    /** Names every gated key column in {@code collation}: the batch mixes their texts. */
    private CapstanHaltException undecodable(KeyCollation collation) {
        List<String> columns = new ArrayList<>();
        for (Weighed w : weighedTables.values()) {
            for (KeyColumn c : w.key.columns()) {
                if (collation.equals(c.collation())) {
                    columns.add(c.name() + " of table " + w.key.table());
                }
            }
        }
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_CHUNK_KEY,
                "a binlog value of key column "
                        + String.join(" or ", columns)
                        + " (character set "
                        + collation.charset()
                        + ") holds a byte with no Unicode character, so its sort weight cannot"
                        + " be asked of the server exactly; set"
                        + " 'scan.incremental.snapshot.chunk.key-column' to another column");
    }

    @Override
    public void close() {
        if (jdbc != null) {
            jdbc.close();
            jdbc = null;
        }
    }

    /** A gated table whose key needs weights, and its key's extractor. */
    private record Weighed(ChunkKey key, KeyExtractor extractor) {}

    /** A row change at {@code index} of the batch that waits for its weights. */
    private record Pending(int index, RowChange change, Weighed table) {}
}
