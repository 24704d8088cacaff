package io.capstan.flink.mysql.source.enumerator;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.capstan.flink.mysql.source.enumerator.StateFixtures.KEY;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.PLANNED;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.TABLE;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.context;
import static io.capstan.flink.mysql.source.enumerator.StateFixtures.g;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResolvingTablesTest {

    private final AssignmentContext ctx = context(AfterSnapshot.STREAM);
    private final ResolvingTables state = new ResolvingTables();

    @Test
    void requestsWaitUntilTheTablesAreResolved() {
        Transition<?> t = state.answer(0, 2, ctx);
        assertThat(t.result()).isEqualTo(java.util.Optional.empty());
        assertThat(t.next()).isSameAs(state);
    }

    @Test
    void theResolvedTablesAreCapturedAndTheirSnapshotBegins() {
        EnumeratorState next = state.tablesResolved(List.of(new SnapshotTable(KEY, 42L)), ctx);
        assertThat(next).isInstanceOf(Snapshotting.class);
        assertThat(next.phase()).isEqualTo(EnumeratorPhase.SNAPSHOTTING);
        assertThat(ctx.capturedTables()).containsExactly(TABLE);
    }

    @Test
    void eventsOfOtherStatesAreWiringErrors() {
        assertThatThrownBy(() -> state.binlogSplitPrepared(PLANNED, ctx))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RESOLVING_TABLES");
        assertThatThrownBy(() -> state.binlogSplitReturned(PLANNED, ctx))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> state.binlogPaused(0, g(5)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(
                        () ->
                                state.restoredSplitChecked(
                                        0, List.of(TABLE), Set.of(), List.of(), 2, ctx))
                .isInstanceOf(IllegalStateException.class);
    }
}
