package io.capstan.flink.mysql.preflight;

import org.apache.flink.annotation.Internal;

import java.util.Collections;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One line of {@code SHOW GRANTS}: privileges granted (or, with partial revokes, revoked) at one
 * level. Only whole-object privileges are kept; column-level ones ({@code SELECT (a)}) are not,
 * because a snapshot reads every column.
 *
 * @param revoke whether the line revokes (a partial revoke) instead of granting
 * @param schema the schema name or pattern, or null for global and other grants
 * @param table the table name for table-level grants, else null
 */
@Internal
public record Grant(
        boolean revoke, Level level, String schema, String table, Set<String> privileges) {

    /** Where a grant applies. Routine, proxy and role grants are {@link #OTHER}. */
    public enum Level {
        GLOBAL,
        SCHEMA,
        TABLE,
        OTHER
    }

    /** Privilege names are kept {@link #normalize normalized} and sorted. */
    public Grant {
        Objects.requireNonNull(level, "level");
        Set<String> normalized = new TreeSet<>();
        for (String p : privileges) {
            normalized.add(normalize(p));
        }
        privileges = Collections.unmodifiableSet(normalized);
    }

    public static Grant global(Set<String> privileges) {
        return new Grant(false, Level.GLOBAL, null, null, privileges);
    }

    /**
     * A schema-level grant; {@code schemaPattern} as SHOW GRANTS prints it (may hold wildcards).
     */
    public static Grant schema(String schemaPattern, Set<String> privileges) {
        return new Grant(false, Level.SCHEMA, schemaPattern, null, privileges);
    }

    public static Grant table(String schema, String table, Set<String> privileges) {
        return new Grant(false, Level.TABLE, schema, table, privileges);
    }

    /** A partial revoke ({@code partial_revokes=ON}): removes global privileges for one schema. */
    public static Grant schemaRevoke(String schema, Set<String> privileges) {
        return new Grant(true, Level.SCHEMA, schema, null, privileges);
    }

    /**
     * Upper case, single spaces: {@code "replication slave"} becomes {@code "REPLICATION SLAVE"}.
     */
    public static String normalize(String privilege) {
        return privilege.trim().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
    }

    /** Whether this line names {@code privilege}, directly or through {@code ALL [PRIVILEGES]}. */
    boolean names(String privilege) {
        return privileges.contains(privilege)
                || privileges.contains("ALL")
                || privileges.contains("ALL PRIVILEGES");
    }

    @Override
    public String toString() {
        return (revoke ? "REVOKE " : "GRANT ")
                + String.join(", ", privileges)
                + " ON "
                + (level == Level.GLOBAL
                        ? "*.*"
                        : level == Level.SCHEMA
                                ? schema + ".*"
                                : level == Level.TABLE ? schema + "." + table : "(other)");
    }
}
