package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.event.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.key.ChunkKey;
import io.capstan.flink.mysql.snapshot.key.TestKeys;
import io.capstan.flink.mysql.source.split.BinlogSplit;
import io.capstan.flink.mysql.source.split.ChunkCompletion;
import io.capstan.flink.mysql.source.split.SnapshotChunkSplit;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Books, splits and positions for the tests of one {@link EnumeratorState} each. */
final class StateFixtures {

    static final ChunkKey KEY = TestKeys.bigint();
    static final TableId TABLE = KEY.table();
    static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    static final BinlogSplit PLANNED =
            new BinlogSplit(List.of(TABLE), BinlogStartPosition.of(g(50)));

    private StateFixtures() {}

    static GtidSet g(long last) {
        return GtidSet.parse(UUID + ":1-" + last);
    }

    static AssignmentContext context(AfterSnapshot after) {
        return new AssignmentContext(after);
    }

    /** A book of {@link #TABLE} with {@code chunks} chunks, all planned, none handed out. */
    static SnapshotBook planned(int chunks) {
        SnapshotBook book = new SnapshotBook(List.of(new SnapshotTable(KEY, 42L)));
        CapstanEnumeratorSnapshotTest.FakePlanning planning =
                new CapstanEnumeratorSnapshotTest.FakePlanning(chunks);
        SnapshotPlanning.Planned p = planning.planMore(book.keys(), book.plannerStates(), 1_000);
        book.planned(p.chunks(), p.states());
        assertThat(book.planningFinished()).isTrue();
        return book;
    }

    /** The same book with every chunk handed out and completed at G = 1-{@code gLast}. */
    static SnapshotBook finished(int chunks, long gLast) {
        SnapshotBook book = planned(chunks);
        for (Optional<SnapshotChunkSplit> c = book.takePending();
                c.isPresent();
                c = book.takePending()) {
            book.complete(c.get().withCompletion(new ChunkCompletion(g(gLast), 10)));
        }
        assertThat(book.allFinished()).isTrue();
        return book;
    }

    /** The reply's split, asserting that the reply assigns one. */
    static SplitReply.Assign assigned(Transition<Optional<SplitReply>> t) {
        assertThat(t.result()).isPresent();
        assertThat(t.result().get()).isInstanceOf(SplitReply.Assign.class);
        return (SplitReply.Assign) t.result().get();
    }
}
