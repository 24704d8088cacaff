package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.ForeignKey.Rule;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CascadeReachTest {

    private static final TableId P = TableId.of("db", "p");
    private static final TableId C = TableId.of("db", "c");
    private static final TableId MID = TableId.of("db", "mid");
    private static final TableId LEAF = TableId.of("db", "leaf");
    private static final TableId OTHER = TableId.of("db", "other");

    private static ForeignKey fk(
            TableId child, String name, TableId parent, int position, Rule del, Rule upd) {
        return new ForeignKey(
                child, name, parent, List.of("x"), List.of("y"), List.of(position), del, upd);
    }

    private static CascadeReach reach(Set<TableId> captured, ForeignKey... keys) {
        return new CascadeReach(List.of(keys), captured::contains, Set.of(P, C, MID, LEAF, OTHER));
    }

    @Test
    void aDeleteHaltsOnlyThroughAPropagatingOnDeleteIntoACapturedTable() {
        CascadeReach r =
                reach(
                        Set.of(C),
                        fk(C, "cascade", P, 0, Rule.CASCADE, Rule.RESTRICT),
                        fk(OTHER, "other", P, 0, Rule.CASCADE, Rule.CASCADE));
        assertThat(r.onDelete(P)).map(ForeignKey::name).contains("cascade");
        assertThat(r.guards(P)).isTrue();
        assertThat(r.guards(C)).isFalse();
        assertThat(r.guards(OTHER)).isFalse();

        CascadeReach restrict = reach(Set.of(C), fk(C, "r", P, 0, Rule.RESTRICT, Rule.NO_ACTION));
        assertThat(restrict.guards(P)).isFalse();
        assertThat(restrict.onDelete(P)).isEmpty();

        CascadeReach setNull = reach(Set.of(C), fk(C, "n", P, 0, Rule.SET_NULL, Rule.RESTRICT));
        assertThat(setNull.onDelete(P)).isPresent();
    }

    @Test
    void anUpdateHaltsOnlyWhenItChangesTheReferencedColumns() {
        CascadeReach r = reach(Set.of(C), fk(C, "u", P, 1, Rule.RESTRICT, Rule.CASCADE));
        Serializable[] before = {1, "k".getBytes(), "note"};
        assertThat(r.onUpdate(P, before, new Serializable[] {1, "k".getBytes(), "new"})).isEmpty();
        assertThat(r.onUpdate(P, before, new Serializable[] {1, "K".getBytes(), "note"}))
                .isPresent();
        // images that cannot be compared count as a change
        assertThat(r.onUpdate(P, null, null)).isPresent();
        assertThat(r.onUpdate(P, new Serializable[] {1}, new Serializable[] {1})).isPresent();
        // an ON DELETE action only: updates cascade nothing
        CascadeReach del = reach(Set.of(C), fk(C, "d", P, 1, Rule.CASCADE, Rule.RESTRICT));
        assertThat(del.onUpdate(P, before, new Serializable[] {2, "x".getBytes(), "y"})).isEmpty();
        // a position the server did not report: unknown, so a change
        CascadeReach unknown = reach(Set.of(C), fk(C, "u", P, -1, Rule.RESTRICT, Rule.SET_NULL));
        assertThat(unknown.onUpdate(P, before, before)).isPresent();
    }

    @Test
    void multiLevelAndSelfReferencingCascadesReachCapturedTables() {
        ForeignKey pToMid = fk(MID, "p_mid", P, 0, Rule.CASCADE, Rule.RESTRICT);
        ForeignKey midToLeaf = fk(LEAF, "mid_leaf", MID, 0, Rule.SET_NULL, Rule.RESTRICT);
        CascadeReach r = reach(Set.of(LEAF), pToMid, midToLeaf);
        assertThat(r.onDelete(P)).contains(pToMid);
        assertThat(r.onDelete(MID)).contains(midToLeaf);
        assertThat(r.capturedReachedThrough(pToMid)).containsExactly(LEAF);

        // the chain stops at a RESTRICT
        CascadeReach stopped =
                reach(
                        Set.of(LEAF),
                        pToMid,
                        fk(LEAF, "mid_leaf", MID, 0, Rule.RESTRICT, Rule.RESTRICT));
        assertThat(stopped.guards(P)).isFalse();

        ForeignKey self = fk(C, "tree", C, 0, Rule.CASCADE, Rule.CASCADE);
        CascadeReach tree = reach(Set.of(C), self);
        assertThat(tree.onDelete(C)).contains(self);
        assertThat(tree.capturedReachedThrough(self)).containsExactly(C);
    }

    @Test
    void anIntermediateTableWhoseConstraintsTheAccountCannotSeeIsReported() {
        ForeignKey midToLeaf = fk(LEAF, "mid_leaf", MID, 0, Rule.CASCADE, Rule.RESTRICT);
        assertThat(
                        new CascadeReach(List.of(midToLeaf), Set.of(LEAF)::contains, Set.of(LEAF))
                                .unseen())
                .contains(MID);
        assertThat(reach(Set.of(LEAF), midToLeaf).unseen()).isEmpty();
    }
}
