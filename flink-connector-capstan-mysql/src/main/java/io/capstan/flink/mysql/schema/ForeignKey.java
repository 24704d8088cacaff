package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;

import java.util.List;
import java.util.Objects;

/**
 * One foreign key constraint as {@code information_schema} describes it: {@code child}'s columns
 * referencing {@code parent}'s, and what InnoDB does to the child rows when a referenced parent row
 * is deleted or its referenced columns change. InnoDB applies those actions below the binary log:
 * the child rows they change never appear in it.
 *
 * @param parentPositions the referenced columns' 0-based positions in the parent's rows (in the
 *     order of {@code parentColumns}); -1 where the server did not report one
 */
@Internal
public record ForeignKey(
        TableId child,
        String name,
        TableId parent,
        List<String> childColumns,
        List<String> parentColumns,
        List<Integer> parentPositions,
        Rule onDelete,
        Rule onUpdate) {

    /** A referential action ({@code DELETE_RULE}, {@code UPDATE_RULE}). */
    @Internal
    public enum Rule {
        CASCADE,
        SET_NULL,
        SET_DEFAULT,
        RESTRICT,
        NO_ACTION;

        /** Whether the action changes child rows (rather than refusing the parent's change). */
        public boolean propagates() {
            return this == CASCADE || this == SET_NULL || this == SET_DEFAULT;
        }

        /**
         * The rule as {@code information_schema} spells it; an unknown one counts as propagating.
         */
        public static Rule of(String text) {
            switch (text == null ? "" : text.trim().toUpperCase(java.util.Locale.ROOT)) {
                case "RESTRICT":
                    return RESTRICT;
                case "NO ACTION":
                    return NO_ACTION;
                case "SET NULL":
                    return SET_NULL;
                case "SET DEFAULT":
                    return SET_DEFAULT;
                default:
                    return CASCADE;
            }
        }
    }

    public ForeignKey {
        Objects.requireNonNull(child, "child");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(parent, "parent");
        childColumns = List.copyOf(childColumns);
        parentColumns = List.copyOf(parentColumns);
        parentPositions = List.copyOf(parentPositions);
        Objects.requireNonNull(onDelete, "onDelete");
        Objects.requireNonNull(onUpdate, "onUpdate");
    }

    /** Whether any of its actions changes child rows. */
    public boolean propagates() {
        return onDelete.propagates() || onUpdate.propagates();
    }

    /** The constraint, its child and its parent, for messages (names only, never values). */
    public String describe() {
        return "constraint `" + name + "` of " + child + " (referencing " + parent + ")";
    }
}
