package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.event.DdlObserver;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.ForeignKey.Rule;
import io.capstan.flink.mysql.schema.TableId;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CascadeGuardTest {

    private static final Gtid G = Gtid.of("3e11fa47-71ca-11e1-9e33-c80aa9429562", 7);
    private static final TableId P = TableId.of("db", "p");
    private static final TableId C = TableId.of("db", "c");
    private static final TableId PLAIN = TableId.of("db", "plain");
    private static final TableId TRIGGERED = TableId.of("db", "triggered");
    private static final ForeignKey CASCADE =
            new ForeignKey(
                    C,
                    "c_p",
                    P,
                    List.of("p_id"),
                    List.of("id"),
                    List.of(0),
                    Rule.CASCADE,
                    Rule.RESTRICT);

    private static CascadeGuard guard(ReferentialFacts.Source source) {
        CascadeGuard g = new CascadeGuard(source, TableFilter.of(Set.of(C)), DdlObserver.NONE);
        g.load();
        return g;
    }

    private static ReferentialFacts facts(Set<TableId> triggersVisible) {
        return new ReferentialFacts(
                List.of(CASCADE),
                Set.of(TRIGGERED),
                Set.of(P, C, PLAIN, TRIGGERED),
                triggersVisible::contains);
    }

    private static List<StatementDmlTargets.Name> names(String table) {
        return List.of(new StatementDmlTargets.Name(null, table));
    }

    @Test
    void statementLoggedChangesOfUncapturedTablesPassOnlyWhenProvablyHarmless() {
        CascadeGuard g = guard(() -> facts(Set.of(P, PLAIN, TRIGGERED)));
        g.check("db", names("plain"), G); // no trigger, no propagating constraint

        assertThatThrownBy(() -> g.check("db", names("p"), G))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
                            assertThat(e.getMessage()).contains("`c_p`", "db", G.toString());
                        });
        assertThatThrownBy(() -> g.check("DB", names("P"), G)) // names as a statement spells them
                .isInstanceOf(CapstanHaltException.class);
        assertThatThrownBy(() -> g.check("db", names("Triggered"), G))
                .isInstanceOf(CapstanHaltException.class);
        assertThatThrownBy(() -> g.check("db", names("triggered"), G))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.STATEMENT_BASED_CHANGE));
        assertThatThrownBy(() -> g.check("", names("plain"), G))
                .isInstanceOf(CapstanHaltException.class);

        // triggers the account cannot see may exist
        CascadeGuard blind = guard(() -> facts(Set.of()));
        assertThatThrownBy(() -> blind.check("db", names("plain"), G))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.STATEMENT_BASED_CHANGE);
                            assertThat(e.getMessage()).contains("TRIGGER");
                        });
    }

    @Test
    void decodesOnlyParentsOfPropagatingConstraintsAndReloadsAfterDdl() {
        AtomicInteger reads = new AtomicInteger();
        AtomicReference<List<ForeignKey>> keys = new AtomicReference<>(List.of(CASCADE));
        CascadeGuard g =
                guard(
                        () -> {
                            reads.incrementAndGet();
                            return new ReferentialFacts(
                                    keys.get(), Set.of(), Set.of(P, C), t -> true);
                        });
        assertThat(g.decodes(P)).isTrue();
        assertThat(g.decodes(C)).isFalse();
        assertThat(g.decodes(PLAIN)).isFalse();

        keys.set(List.of());
        g.onDdl("INSERT INTO p VALUES (1)"); // not a DDL that may change constraints
        g.onDdl("ANALYZE TABLE p");
        assertThat(reads).hasValue(1);
        g.onDdl("ALTER TABLE c DROP FOREIGN KEY c_p");
        assertThat(reads).hasValue(2);
        assertThat(g.decodes(P)).isFalse();
    }

    @Test
    void aReadFailureFailsTheStreamAndAnInvisibleIntermediateTableHalts() {
        assertThatThrownBy(
                        () ->
                                guard(
                                        () -> {
                                            throw new IOException("down");
                                        }))
                .isInstanceOf(CascadeGuard.FactsUnavailable.class);
        assertThatThrownBy(
                        () ->
                                guard(
                                        () ->
                                                new ReferentialFacts(
                                                        List.of(CASCADE),
                                                        Set.of(),
                                                        Set.of(C),
                                                        t -> true)))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
                            assertThat(e.getMessage()).contains("GRANT SELECT", P.toString());
                        });
    }

    @Test
    void aParentDeleteHaltsUnlessTheSnapshotOfEveryReachedTableShowsIt() {
        TableSchemaCache.Entry parent =
                new TableSchemaCache.Entry(
                        P, false, new TableMapEventData(), false, false, null, null);
        DeleteRowsEventData delete = new DeleteRowsEventData();
        delete.setRows(List.<java.io.Serializable[]>of(new java.io.Serializable[] {1}));
        ReferentialFacts.Source source =
                () -> new ReferentialFacts(List.of(CASCADE), Set.of(), Set.of(P, C), t -> true);

        CascadeGuard streaming = guard(source);
        assertThatThrownBy(() -> streaming.onRows(parent, delete, G))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.FOREIGN_KEY_CASCADE);
                            assertThat(e.getMessage())
                                    .contains(
                                            G.toString(),
                                            "`c_p`",
                                            C.toString(),
                                            P.toString(),
                                            "Remedy");
                        });
        streaming.onRows(parent, new WriteRowsEventData(), G); // an insert cascades nothing

        DdlObserver chunksReadAfter =
                new DdlObserver() {
                    @Override
                    public void onDdl(String database, String sql, Gtid gtid) {}

                    @Override
                    public boolean snapshotHolds(TableId table, Gtid gtid) {
                        return table.equals(C);
                    }
                };
        CascadeGuard snapshotting =
                new CascadeGuard(source, TableFilter.of(Set.of(C)), chunksReadAfter);
        snapshotting.load();
        snapshotting.onRows(parent, delete, G);
    }
}
