package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.BinlogRecord;
import io.capstan.flink.mysql.binlog.RowChange;
import io.capstan.flink.mysql.binlog.TransactionEnd;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.proxy.JdbcProxy;
import io.capstan.flink.mysql.snapshot.gate.CursorGate;
import io.capstan.flink.mysql.snapshot.gate.GateKeys;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.KeyCollation;
import io.capstan.flink.mysql.snapshot.key.KeyExtractor;
import io.capstan.flink.mysql.snapshot.key.KeyTuple;
import io.capstan.flink.mysql.source.split.BinlogSplit;

import org.apache.flink.table.data.RowData;

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
    private final Map<ChunkKey, KeyExtractor> extractors = new HashMap<>();
    private CursorGate gate;
    private GtidSet processed;
    @Nullable private JdbcProxy jdbc;

    GateKeyWeigher(BinlogSplit split, Supplier<JdbcProxy> connect, CapstanReaderMetrics metrics) {
        this.connect = connect;
        this.metrics = metrics;
        this.processed = split.start().processed();
        this.gate = split.gate().retire(processed);
    }

    /** The elements of {@code records}, row changes needing weights with their weighed keys. */
    List<SourceElement> elements(List<BinlogRecord> records) throws IOException {
        List<SourceElement> out = new ArrayList<>(records.size());
        if (gate.chunkCount() == 0) { // the steady state: nothing is gated
            for (BinlogRecord r : records) {
                out.add(SourceElement.of(r));
            }
            return out;
        }
        List<Pending> pending = new ArrayList<>();
        Map<KeyCollation, Map<String, byte[]>> texts = new LinkedHashMap<>();
        for (BinlogRecord r : records) {
            if (r instanceof TransactionEnd end) {
                transactionEnded(end);
            } else if (r instanceof RowChange c) {
                ChunkKey key = gate.key(c.tableId()).orElse(null);
                if (key != null && key.needsWeights()) {
                    pending.add(new Pending(out.size(), c, key));
                    collect(key, c.before(), texts);
                    collect(key, c.after(), texts);
                }
            }
            out.add(SourceElement.of(r));
        }
        if (!pending.isEmpty()) {
            weigh(texts);
            for (Pending p : pending) {
                GateKeys keys =
                        new GateKeys(
                                weighed(p.key, p.change.before(), texts),
                                weighed(p.key, p.change.after(), texts));
                out.set(p.index, SourceElement.of(p.change, keys));
            }
        }
        return out;
    }

    /** As BinlogSplitState.transactionEnded: a new transaction joins the set, tables may retire. */
    private void transactionEnded(TransactionEnd end) {
        if (!processed.contains(end.gtid())) {
            processed = processed.add(end.gtid());
            gate = gate.retire(processed);
        }
    }

    private void collect(
            ChunkKey key, @Nullable RowData image, Map<KeyCollation, Map<String, byte[]>> texts) {
        if (image == null) {
            return;
        }
        KeyExtractor extractor = extractor(key);
        for (int i = 0; i < key.arity(); i++) {
            KeyCollation collation = key.column(i).collation();
            if (collation != null) {
                String text = extractor.text(image, i).toString();
                if (!collation.decodesLosslessly() && text.indexOf('\uFFFD') >= 0) {
                    throw undecodable(key, i);
                }
                texts.computeIfAbsent(collation, k -> new LinkedHashMap<>()).put(text, null);
            }
        }
    }

    private void weigh(Map<KeyCollation, Map<String, byte[]>> texts) throws IOException {
        if (jdbc == null) {
            jdbc = connect.get();
        }
        for (Map.Entry<KeyCollation, Map<String, byte[]>> e : texts.entrySet()) {
            List<String> distinct = new ArrayList<>(e.getValue().keySet());
            List<byte[]> weights = jdbc.keyWeights(e.getKey(), distinct);
            for (int i = 0; i < distinct.size(); i++) {
                e.getValue().put(distinct.get(i), weights.get(i));
            }
            metrics.gateKeysWeighed(distinct.size());
        }
    }

    @Nullable
    private KeyTuple weighed(
            ChunkKey key, @Nullable RowData image, Map<KeyCollation, Map<String, byte[]>> texts) {
        if (image == null) {
            return null;
        }
        KeyExtractor extractor = extractor(key);
        byte[][] weights = new byte[key.arity()][];
        for (int i = 0; i < key.arity(); i++) {
            KeyCollation collation = key.column(i).collation();
            if (collation != null) {
                weights[i] = texts.get(collation).get(extractor.text(image, i).toString());
            }
        }
        return extractor.extract(image, weights);
    }

    private KeyExtractor extractor(ChunkKey key) {
        return extractors.computeIfAbsent(key, KeyExtractor::of);
    }

    private static CapstanHaltException undecodable(ChunkKey key, int column) {
        return new CapstanHaltException(
                HaltReason.UNSUPPORTED_CHUNK_KEY,
                "table "
                        + key.table()
                        + ": a binlog value of key column "
                        + key.column(column).name()
                        + " (character set "
                        + key.column(column).collation().charset()
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

    /** A row change at {@code index} of the batch that waits for its weights. */
    private record Pending(int index, RowChange change, ChunkKey key) {}
}
