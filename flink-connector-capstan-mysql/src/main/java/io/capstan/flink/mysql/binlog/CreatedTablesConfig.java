package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Objects;
import java.util.Set;

/**
 * How a stream captures the tables created while it runs (docs/operations.md, "Tables created while
 * the job runs").
 *
 * @param selection the configured selection: a created table it matches is captured
 * @param awaited matching tables that exist where the stream starts but are not in its table list
 *     (created after the tables were listed): each must be created in the stream before {@code
 *     awaitedBy}, a position the server had passed when they were seen, else the stream halts
 * @param awaitedBy see {@code awaited}
 */
@Internal
public record CreatedTablesConfig(TableFilter selection, Set<TableId> awaited, GtidSet awaitedBy)
        implements Serializable {

    public CreatedTablesConfig {
        Objects.requireNonNull(selection, "selection");
        awaited = Set.copyOf(awaited);
        Objects.requireNonNull(awaitedBy, "awaitedBy");
    }

    /** Captures what {@code selection} matches, awaiting nothing. */
    public static CreatedTablesConfig of(TableFilter selection) {
        return new CreatedTablesConfig(selection, Set.of(), GtidSet.empty());
    }
}
