package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.TableId;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Which changes of which tables InnoDB may propagate into a captured table through foreign-key
 * actions it never logs ({@code ON DELETE/UPDATE CASCADE/SET NULL/SET DEFAULT}). Pure.
 *
 * <p>A table "reaches" the captured tables when it is captured, or when it is the parent of a
 * constraint with a propagating action whose child reaches them (a fixpoint over the constraints:
 * multi-level cascades and self-referencing tables included). A cascaded change of a child row is a
 * delete or an update of its referencing columns, and either may propagate further: every
 * propagating action of a reached table counts, whether or not the cascaded columns are the ones
 * the next constraint references (conservative, never less).
 *
 * <p>A parent's DELETE propagates through constraints whose {@code ON DELETE} propagates; its
 * UPDATE only through constraints whose {@code ON UPDATE} propagates and whose referenced columns
 * it changes (before and after images compared byte for byte: InnoDB cascades a binary change).
 */
final class CascadeReach {

    private final Map<TableId, List<ForeignKey>> guardedByParent = new HashMap<>();
    private final Map<TableId, List<ForeignKey>> propagatingByParent = new HashMap<>();
    private final Predicate<TableId> captured;
    private final Set<TableId> reaching = new HashSet<>();
    private final Optional<TableId> unseen;

    /**
     * @param visibleTables the tables whose constraints the account can see; a table that reaches a
     *     captured one but is not visible hides the constraints into it ({@link #unseen})
     */
    CascadeReach(
            List<ForeignKey> foreignKeys, Predicate<TableId> captured, Set<TableId> visibleTables) {
        this.captured = captured;
        for (ForeignKey k : foreignKeys) {
            if (k.propagates()) {
                propagatingByParent.computeIfAbsent(k.parent(), p -> new ArrayList<>()).add(k);
            }
        }
        // fixpoint: captured tables, then parents of propagating constraints into reaching ones
        Set<TableId> tables = new HashSet<>();
        for (ForeignKey k : foreignKeys) {
            tables.add(k.child());
            tables.add(k.parent());
        }
        Deque<TableId> work = new ArrayDeque<>();
        for (TableId t : tables) {
            if (captured.test(t)) {
                reaching.add(t);
                work.add(t);
            }
        }
        Map<TableId, List<ForeignKey>> byChild = new HashMap<>();
        for (List<ForeignKey> ks : propagatingByParent.values()) {
            for (ForeignKey k : ks) {
                byChild.computeIfAbsent(k.child(), c -> new ArrayList<>()).add(k);
            }
        }
        while (!work.isEmpty()) {
            for (ForeignKey k : byChild.getOrDefault(work.poll(), List.of())) {
                if (reaching.add(k.parent())) {
                    work.add(k.parent());
                }
            }
        }
        for (Map.Entry<TableId, List<ForeignKey>> e : propagatingByParent.entrySet()) {
            for (ForeignKey k : e.getValue()) {
                if (reaching.contains(k.child())) {
                    guardedByParent.computeIfAbsent(e.getKey(), p -> new ArrayList<>()).add(k);
                }
            }
        }
        this.unseen =
                new TreeSet<>(reaching)
                        .stream()
                                .filter(t -> !captured.test(t) && !visibleTables.contains(t))
                                .findFirst();
    }

    /**
     * A table that reaches a captured one through constraints the account can see, but whose own
     * constraints (as a child) it cannot see: changes of its parents could propagate unseen.
     */
    Optional<TableId> unseen() {
        return unseen;
    }

    /** Whether some change of {@code parent}'s rows may propagate into a captured table. */
    boolean guards(TableId parent) {
        return guardedByParent.containsKey(parent);
    }

    /** The first constraint through which deleting a row of {@code parent} may propagate. */
    Optional<ForeignKey> onDelete(TableId parent) {
        for (ForeignKey k : guardedByParent.getOrDefault(parent, List.of())) {
            if (k.onDelete().propagates()) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /**
     * The first constraint through which this update of a row of {@code parent} may propagate: one
     * whose {@code ON UPDATE} propagates and whose referenced columns differ between the images (or
     * cannot be compared: a position the server did not report, or outside the images).
     */
    Optional<ForeignKey> onUpdate(TableId parent, Serializable[] before, Serializable[] after) {
        for (ForeignKey k : guardedByParent.getOrDefault(parent, List.of())) {
            if (k.onUpdate().propagates() && referencedChanged(k, before, after)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /**
     * A constraint through which any change of {@code parent} may propagate into a captured table;
     * names compare ignoring case (a statement's spelling may differ from the catalogue's).
     */
    Optional<ForeignKey> anyPropagation(TableId parent) {
        return new TreeSet<>(guardedByParent.keySet())
                .stream()
                        .filter(t -> sameTable(t, parent))
                        .map(t -> guardedByParent.get(t).get(0))
                        .findFirst();
    }

    static boolean sameTable(TableId a, TableId b) {
        return a.database().equalsIgnoreCase(b.database()) && a.table().equalsIgnoreCase(b.table());
    }

    /**
     * The captured tables a change propagated through {@code k} may reach (its child, when
     * captured, and those further down), sorted.
     */
    Set<TableId> capturedReachedThrough(ForeignKey k) {
        Set<TableId> seen = new HashSet<>();
        Set<TableId> out = new TreeSet<>();
        Deque<TableId> work = new ArrayDeque<>(List.of(k.child()));
        while (!work.isEmpty()) {
            TableId t = work.poll();
            if (!seen.add(t)) {
                continue;
            }
            if (captured.test(t)) {
                out.add(t);
            }
            for (ForeignKey next : propagatingByParent.getOrDefault(t, List.of())) {
                if (reaching.contains(next.child())) {
                    work.add(next.child());
                }
            }
        }
        return out;
    }

    private static boolean referencedChanged(
            ForeignKey k, Serializable[] before, Serializable[] after) {
        for (int position : k.parentPositions()) {
            if (position < 0
                    || before == null
                    || after == null
                    || position >= before.length
                    || position >= after.length) {
                return true;
            }
            if (!sameValue(before[position], after[position])) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameValue(Serializable a, Serializable b) {
        if (a instanceof byte[] && b instanceof byte[]) {
            return Arrays.equals((byte[]) a, (byte[]) b);
        }
        return Objects.equals(a, b);
    }
}
