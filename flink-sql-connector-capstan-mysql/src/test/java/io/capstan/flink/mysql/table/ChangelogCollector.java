package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Reads a running query's changelog on a background thread so the test can wait for rows. */
final class ChangelogCollector implements AutoCloseable {
    private final TableResult result;
    private final List<Row> rows = new ArrayList<>();
    private final Thread reader;
    private volatile Throwable failure;

    ChangelogCollector(TableResult result) {
        this.result = result;
        CloseableIterator<Row> it = result.collect();
        this.reader =
                new Thread(
                        () -> {
                            try {
                                while (it.hasNext()) {
                                    Row r = it.next();
                                    synchronized (rows) {
                                        rows.add(r);
                                    }
                                }
                            } catch (Throwable t) {
                                failure = t;
                            }
                        },
                        "changelog-collector");
        reader.setDaemon(true);
        reader.start();
    }

    List<Row> rows() {
        synchronized (rows) {
            return new ArrayList<>(rows);
        }
    }

    /** Waits until the rows so far satisfy the condition; fails with the last rows otherwise. */
    List<Row> await(Predicate<List<Row>> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (failure != null) {
                throw new AssertionError("the query failed", failure);
            }
            List<Row> now = rows();
            if (condition.test(now)) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out after "
                                + timeout
                                + "; "
                                + now.size()
                                + " rows so far, the last: "
                                + now.subList(Math.max(0, now.size() - 20), now.size()));
            }
            Thread.sleep(100);
        }
    }

    List<Row> awaitCount(int n, Duration timeout) throws InterruptedException {
        return await(r -> r.size() >= n, timeout);
    }

    @Override
    public void close() throws Exception {
        result.getJobClient().ifPresent(c -> c.cancel());
        reader.interrupt();
    }
}
