package io.capstan.flink.mysql.source.reader;

import io.capstan.flink.mysql.binlog.BinlogRecord;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;

/**
 * One fetch of the binlog split: several records, each handed to the emitter as its own element
 * (a row change or a transaction end, never a whole transaction).
 */
final class BinlogRecordBatch implements RecordsWithSplitIds<BinlogRecord> {

    private final List<BinlogRecord> records;
    private boolean splitReturned;
    private int next;

    BinlogRecordBatch(List<BinlogRecord> records) {
        this.records = records;
    }

    static BinlogRecordBatch empty() {
        return new BinlogRecordBatch(Collections.emptyList());
    }

    @Nullable
    @Override
    public String nextSplit() {
        if (splitReturned || records.isEmpty()) {
            return null;
        }
        splitReturned = true;
        return BinlogSplit.SPLIT_ID;
    }

    @Nullable
    @Override
    public BinlogRecord nextRecordFromSplit() {
        return next < records.size() ? records.get(next++) : null;
    }

    @Override
    public Set<String> finishedSplits() {
        return Collections.emptySet();
    }
}
