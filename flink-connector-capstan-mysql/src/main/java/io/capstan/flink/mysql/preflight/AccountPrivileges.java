package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.annotation.Internal;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What the connecting account may do, evaluated the way MySQL evaluates it: a privilege holds on a
 * table when it is granted globally (and not partially revoked for the table's schema), on a schema
 * whose name or pattern matches, or on the table itself.
 *
 * <p>Schema names in schema-level grants are {@code LIKE} patterns ({@code _}, {@code %}, {@code \}
 * escapes) unless {@code partial_revokes} is ON, in which case MySQL reads them literally.
 * Comparisons ignore case when {@code lower_case_table_names} is not 0.
 */
@Internal
public final class AccountPrivileges {

    /** Privileges MySQL allows at table level; others (LOCK TABLES, REPLICATION ...) are not. */
    private static final Set<String> TABLE_LEVEL =
            Set.of(
                    "ALTER",
                    "CREATE",
                    "CREATE VIEW",
                    "DELETE",
                    "DROP",
                    "GRANT OPTION",
                    "INDEX",
                    "INSERT",
                    "REFERENCES",
                    "SELECT",
                    "SHOW VIEW",
                    "TRIGGER",
                    "UPDATE");

    private final String user;
    private final String host;
    private final List<Grant> grants;
    private final boolean schemaWildcards;
    private final boolean caseInsensitiveNames;

    /**
     * @param user the user part of {@code CURRENT_USER()}
     * @param host the host part of {@code CURRENT_USER()}
     * @param grants the session's effective grants (its own and its active roles')
     * @param schemaWildcards false when {@code partial_revokes} is ON
     * @param caseInsensitiveNames true when {@code lower_case_table_names} is not 0
     */
    public AccountPrivileges(
            String user,
            String host,
            List<Grant> grants,
            boolean schemaWildcards,
            boolean caseInsensitiveNames) {
        this.user = Objects.requireNonNull(user, "user");
        this.host = Objects.requireNonNull(host, "host");
        this.grants = List.copyOf(grants);
        this.schemaWildcards = schemaWildcards;
        this.caseInsensitiveNames = caseInsensitiveNames;
    }

    /** Parses {@code CURRENT_USER()} ({@code user@host}; the user may itself hold an {@code @}). */
    public static String[] splitAccount(String currentUser) {
        int at = currentUser.lastIndexOf('@');
        return at < 0
                ? new String[] {currentUser, "%"}
                : new String[] {currentUser.substring(0, at), currentUser.substring(at + 1)};
    }

    public String user() {
        return user;
    }

    public String host() {
        return host;
    }

    public List<Grant> grants() {
        return grants;
    }

    /** The account as GRANT statements name it: {@code 'user'@'host'}. */
    public String quotedAccount() {
        return quoteString(user) + "@" + quoteString(host);
    }

    private static String quoteString(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /** Whether {@code privilege} (e.g. {@code REPLICATION SLAVE}) is granted at global level. */
    public boolean hasGlobal(String privilege) {
        String p = Grant.normalize(privilege);
        for (Grant g : grants) {
            if (!g.revoke() && g.level() == Grant.Level.GLOBAL && g.names(p)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code privilege} holds on {@code table} at any level. */
    public boolean hasOnTable(String privilege, TableId table) {
        String p = Grant.normalize(privilege);
        if (hasGlobal(p) && !partiallyRevoked(p, table.database())) {
            return true;
        }
        for (Grant g : grants) {
            if (g.revoke() || !g.names(p)) {
                continue;
            }
            if (g.level() == Grant.Level.SCHEMA && schemaMatches(g.schema(), table.database())) {
                return true;
            }
            if (g.level() == Grant.Level.TABLE
                    && TABLE_LEVEL.contains(p)
                    && sameName(g.schema(), table.database())
                    && sameName(g.table(), table.table())) {
                return true;
            }
        }
        return false;
    }

    private boolean partiallyRevoked(String privilege, String schema) {
        for (Grant g : grants) {
            if (g.revoke()
                    && g.level() == Grant.Level.SCHEMA
                    && g.names(privilege)
                    && sameName(g.schema(), schema)) {
                return true;
            }
        }
        return false;
    }

    private boolean sameName(String a, String b) {
        return caseInsensitiveNames ? a.equalsIgnoreCase(b) : a.equals(b);
    }

    private boolean schemaMatches(String pattern, String schema) {
        if (!schemaWildcards) {
            return sameName(pattern, schema);
        }
        String p = caseInsensitiveNames ? pattern.toLowerCase(Locale.ROOT) : pattern;
        String s = caseInsensitiveNames ? schema.toLowerCase(Locale.ROOT) : schema;
        return like(p, 0, s, 0);
    }

    /** SQL LIKE with {@code %}, {@code _} and backslash escapes. */
    static boolean like(String pattern, int pi, String text, int ti) {
        while (pi < pattern.length()) {
            char c = pattern.charAt(pi);
            if (c == '%') {
                for (int k = ti; k <= text.length(); k++) {
                    if (like(pattern, pi + 1, text, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (ti >= text.length()) {
                return false;
            }
            if (c == '_') {
                pi++;
                ti++;
                continue;
            }
            if (c == '\\' && pi + 1 < pattern.length()) {
                pi++;
                c = pattern.charAt(pi);
            }
            if (c != text.charAt(ti)) {
                return false;
            }
            pi++;
            ti++;
        }
        return ti == text.length();
    }

    @Override
    public String toString() {
        return "AccountPrivileges{" + quotedAccount() + ", grants=" + grants + "}";
    }
}
