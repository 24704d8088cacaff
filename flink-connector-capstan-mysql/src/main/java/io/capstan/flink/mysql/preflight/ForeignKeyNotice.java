package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Names, before anything is read, each captured table that is the child of a foreign key with a
 * propagating action ({@code CASCADE}, {@code SET NULL}): InnoDB applies those below the binary
 * log, so the stream halts ({@code foreign_key_cascade}) when the parent's change would apply one.
 * A warning, not a refusal: many parents are never deleted and never change their referenced key
 * (append-only or soft-deleted rows), and such a job runs exactly; the halt comes precisely when a
 * change would have been lost. A chain of cascades through uncaptured tables always ends in one of
 * these constraints, so each affected table is named.
 */
@Internal
public final class ForeignKeyNotice {

    private static final Logger LOG = LoggerFactory.getLogger(ForeignKeyNotice.class);

    private ForeignKeyNotice() {}

    /** Logs {@link #lines} at WARN, one line each. */
    public static void log(List<ForeignKey> foreignKeys, Collection<TableId> captured) {
        for (String line : lines(foreignKeys, captured)) {
            LOG.warn(line);
        }
    }

    /** One line per propagating constraint into a captured table (names only). Pure. */
    public static List<String> lines(List<ForeignKey> foreignKeys, Collection<TableId> captured) {
        Set<TableId> tables = new HashSet<>(captured);
        List<String> out = new ArrayList<>();
        for (ForeignKey k : foreignKeys) {
            if (!tables.contains(k.child()) || !k.propagates()) {
                continue;
            }
            List<String> actions = new ArrayList<>();
            if (k.onDelete().propagates()) {
                actions.add("ON DELETE " + k.onDelete().name().replace('_', ' '));
            }
            if (k.onUpdate().propagates()) {
                actions.add("ON UPDATE " + k.onUpdate().name().replace('_', ' '));
            }
            out.add(
                    "Captured table "
                            + k.child()
                            + " is the child of constraint `"
                            + k.name()
                            + "` ("
                            + String.join(", ", actions)
                            + ") referencing "
                            + k.parent()
                            + ": MySQL does not log the child rows such an action changes, so the"
                            + " job halts (foreign_key_cascade) when a change of "
                            + k.parent()
                            + " would apply it. See docs/operations.md, 'Foreign keys'.");
        }
        return out;
    }
}
