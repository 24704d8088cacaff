package io.capstan.flink.mysql.preflight;

import org.apache.flink.annotation.Internal;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's product and version as read from {@code @@version} and {@code @@version_comment}.
 *
 * <p>Pure value: parsing needs no connection. MariaDB reports itself in {@code @@version} (for
 * example {@code 10.11.6-MariaDB-0+deb12u1}); forks that keep MySQL's replication model, such as
 * Percona Server, count as MySQL.
 */
@Internal
public final class ServerVersion implements Comparable<ServerVersion> {

    /** Which replication model the server follows. */
    public enum Flavour {
        MYSQL,
        MARIADB
    }

    private static final Pattern NUMBERS = Pattern.compile("^(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    private static final String MARIADB_PREFIX = "5.5.5-";

    private final Flavour flavour;
    private final int major;
    private final int minor;
    private final int patch;
    private final String text;

    private ServerVersion(Flavour flavour, int major, int minor, int patch, String text) {
        this.flavour = flavour;
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.text = text;
    }

    /** A MySQL version with the given numbers (for comparisons and tests). */
    public static ServerVersion mysql(int major, int minor, int patch) {
        return new ServerVersion(
                Flavour.MYSQL, major, minor, patch, major + "." + minor + "." + patch);
    }

    /** A MariaDB version with the given numbers (for comparisons and tests). */
    public static ServerVersion mariaDb(int major, int minor, int patch) {
        return new ServerVersion(
                Flavour.MARIADB,
                major,
                minor,
                patch,
                major + "." + minor + "." + patch + "-MariaDB");
    }

    /**
     * Parses {@code @@version} and {@code @@version_comment}.
     *
     * @throws IllegalArgumentException if {@code @@version} does not start with numbers
     */
    public static ServerVersion parse(String version, String versionComment) {
        Objects.requireNonNull(version, "version");
        String comment = versionComment == null ? "" : versionComment;
        boolean mariaDb = (version + " " + comment).toLowerCase(Locale.ROOT).contains("mariadb");
        // MariaDB's handshake prefixes "5.5.5-" for old clients; its real version follows.
        String numbers = version.trim();
        if (mariaDb && numbers.startsWith(MARIADB_PREFIX)) {
            numbers = numbers.substring(MARIADB_PREFIX.length());
        }
        Matcher m = NUMBERS.matcher(numbers);
        if (!m.find()) {
            throw new IllegalArgumentException(
                    "cannot read the server version from @@version '" + version + "'");
        }
        return new ServerVersion(
                mariaDb ? Flavour.MARIADB : Flavour.MYSQL,
                Integer.parseInt(m.group(1)),
                Integer.parseInt(m.group(2)),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3)),
                version.trim());
    }

    public Flavour flavour() {
        return flavour;
    }

    public int major() {
        return major;
    }

    public int minor() {
        return minor;
    }

    public int patch() {
        return patch;
    }

    /** {@code @@version} as the server printed it (a setting, safe to show). */
    public String text() {
        return text;
    }

    /** True for MySQL at or above {@code other}'s numbers; always false for MariaDB. */
    public boolean isMySqlAtLeast(int major, int minor, int patch) {
        return flavour == Flavour.MYSQL && compareNumbers(major, minor, patch) >= 0;
    }

    /** Whether this is a MariaDB server. */
    public boolean isMariaDb() {
        return flavour == Flavour.MARIADB;
    }

    private int compareNumbers(int otherMajor, int otherMinor, int otherPatch) {
        int c = Integer.compare(major, otherMajor);
        if (c == 0) {
            c = Integer.compare(minor, otherMinor);
        }
        return c != 0 ? c : Integer.compare(patch, otherPatch);
    }

    @Override
    public int compareTo(ServerVersion o) {
        int c = flavour.compareTo(o.flavour);
        return c != 0 ? c : compareNumbers(o.major, o.minor, o.patch);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ServerVersion)) {
            return false;
        }
        ServerVersion v = (ServerVersion) o;
        return flavour == v.flavour && major == v.major && minor == v.minor && patch == v.patch;
    }

    @Override
    public int hashCode() {
        return Objects.hash(flavour, major, minor, patch);
    }

    @Override
    public String toString() {
        return (flavour == Flavour.MARIADB ? "MariaDB " : "MySQL ") + text;
    }
}
