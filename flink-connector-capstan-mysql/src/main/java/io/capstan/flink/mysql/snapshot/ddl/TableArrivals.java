package io.capstan.flink.mysql.snapshot.ddl;

import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer.Token;

import org.apache.flink.annotation.Internal;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The tables a DDL statement brings into existence under a name, for capturing tables created while
 * a job runs: CREATE TABLE (also {@code ... LIKE}, {@code ... SELECT}, {@code IF NOT EXISTS} and
 * {@code TEMPORARY}, told apart by flags), and the new names of RENAME TABLE and ALTER TABLE ...
 * RENAME, which arrive with rows. Read by {@link SnapshotDdlGuard}'s parser; names are as written,
 * the database null when the statement leaves it to the session's. Pure.
 *
 * @param created the tables a CREATE TABLE names
 * @param renamedInto the new names of renamed tables, {@code {database or null, table}}
 */
@Internal
public record TableArrivals(List<Creation> created, List<String[]> renamedInto) {

    /** Statements whose text, if not understood, may have brought a table in. */
    private static final Set<String> ARRIVING_HEADS = Set.of("CREATE", "RENAME", "ALTER");

    /**
     * One CREATE TABLE.
     *
     * @param database as written, or null for the session's database
     * @param ifNotExists {@code IF NOT EXISTS}: the server logs it also when the table existed
     * @param temporary {@code CREATE TEMPORARY TABLE}: a session's table, never captured
     * @param systemVersioned {@code WITH SYSTEM VERSIONING} (MariaDB), of the table or a column
     * @param mariaDbTyped a column of MariaDB's UUID, INET4 or INET6, which the binlog writes as
     *     plain BINARY(n)
     * @param likeSource the table a {@code CREATE TABLE ... LIKE} copies, null for another CREATE:
     *     the statement does not tell the columns' types
     */
    public record Creation(
            @Nullable String database,
            String table,
            boolean ifNotExists,
            boolean temporary,
            boolean systemVersioned,
            boolean mariaDbTyped,
            @Nullable Name likeSource) {}

    /**
     * A table's name as a statement writes it.
     *
     * @param database as written, or null for the session's database
     */
    public record Name(@Nullable String database, String table) {}

    /** None: the statement brings no table in. */
    public static final TableArrivals NONE = new TableArrivals(List.of(), List.of());

    /**
     * The arrivals of {@code sql}; empty when it may bring a table in but is not understood (a
     * CREATE, RENAME or ALTER the parser cannot read).
     */
    public static Optional<TableArrivals> of(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlTokenizer.tokenize(sql);
        } catch (IllegalArgumentException e) {
            return unreadable(sql);
        }
        if (tokens.isEmpty()) {
            return Optional.of(NONE);
        }
        Optional<SnapshotDdlGuard.Targets> targets = SnapshotDdlGuard.Parser.targets(tokens);
        if (targets.isEmpty()) {
            return unreadable(sql);
        }
        return Optional.of(
                new TableArrivals(
                        List.copyOf(targets.get().created),
                        List.copyOf(targets.get().renamedInto)));
    }

    private static Optional<TableArrivals> unreadable(String sql) {
        return ARRIVING_HEADS.contains(TokenCursor.leadingWord(sql))
                ? Optional.empty()
                : Optional.of(NONE);
    }
}
