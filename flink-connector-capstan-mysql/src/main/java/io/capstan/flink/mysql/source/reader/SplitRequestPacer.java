package io.capstan.flink.mysql.source.reader;

/**
 * Decides when a reader asks the enumerator for its next split (task thread only). It keeps up to
 * {@link #CHUNKS_AHEAD} chunk splits in hand, so that the fetcher reads the next chunk while the
 * task thread emits the current one, instead of asking only after a chunk is emitted and idling for
 * the read of the next. At most one request is outstanding at a time: the enumerator answers each
 * request once (a chunk, the binlog split or "no more splits") and keeps a waiting reader once, so
 * a second request would never be answered. No requests once the reader streams the binlog split or
 * has been told that no more splits will come.
 */
final class SplitRequestPacer {

    /** Chunk splits a reader holds at most: one being emitted, one being read. */
    static final int CHUNKS_AHEAD = 2;

    private int chunksInHand;
    private boolean requestOutstanding;
    private boolean done;

    /** Chunks restored from a checkpoint or assigned: they are in hand until finished. */
    void chunksAdded(int count) {
        chunksInHand += count;
    }

    /** The enumerator answered the outstanding request (with a split or with no more splits). */
    void answered() {
        requestOutstanding = false;
    }

    void chunksFinished(int count) {
        chunksInHand -= count;
        if (chunksInHand < 0) {
            throw new IllegalStateException("more chunks finished than were in hand");
        }
    }

    /** The binlog split came, or no more splits will: never ask again. */
    void noMoreRequests() {
        done = true;
    }

    /**
     * The binlog split paused while tables are added: this reader reads their chunks too (at
     * parallelism 1 it is the only one), so it asks again.
     */
    void reopen() {
        done = false;
    }

    /** Whether to send a split request now; if so, it counts as outstanding from here. */
    boolean shouldRequest() {
        if (done || requestOutstanding || chunksInHand >= CHUNKS_AHEAD) {
            return false;
        }
        requestOutstanding = true;
        return true;
    }
}
