package io.capstan.flink.mysql.connect;

import io.capstan.flink.mysql.CapstanMySqlOptions;

import org.apache.flink.annotation.Internal;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Driver properties a user may not pass through (SQL {@code jdbc.properties.*}, DataStream {@code
 * jdbcProperty}): the ones capstan sets so that snapshot and binlog values agree, and the ones an
 * option of its own already sets. One list for both entry points. Keys compare ignoring case, as
 * Connector/J's do.
 */
@Internal
public final class ReservedJdbcProperties {

    private static final Map<String, String> REMEDIES = remedies();

    private ReservedJdbcProperties() {}

    /** Why the property is refused and what to do instead, or empty if it may be passed. */
    public static Optional<String> remedy(String key) {
        return Optional.ofNullable(REMEDIES.get(key.toLowerCase(Locale.ROOT)));
    }

    private static Map<String, String> remedies() {
        Map<String, String> m = new TreeMap<>();
        String values = "capstan sets it so that snapshot and binlog values agree; remove it.";
        for (String key :
                new String[] {
                    "connectionTimeZone",
                    "serverTimezone",
                    "forceConnectionTimeZoneToSession",
                    "preserveInstants",
                    "zeroDateTimeBehavior",
                    "tinyInt1isBit",
                    "transformedBitIsBoolean",
                    "yearIsDateType",
                    "characterEncoding",
                    "useUnicode",
                    "characterSetResults"
                }) {
            m.put(key.toLowerCase(Locale.ROOT), values);
        }
        m.put("user", option(CapstanMySqlOptions.USERNAME.key(), "username()"));
        m.put("password", option(CapstanMySqlOptions.PASSWORD.key(), "password()"));
        for (String ssl : new String[] {"sslMode", "useSSL", "requireSSL"}) {
            m.put(
                    ssl.toLowerCase(Locale.ROOT),
                    option(CapstanMySqlOptions.SSL_MODE.key(), "sslMode()"));
        }
        m.put(
                "connecttimeout",
                option(CapstanMySqlOptions.CONNECT_TIMEOUT.key(), "connectTimeout()"));
        return m;
    }

    private static String option(String sqlOption, String builderMethod) {
        return "use the '"
                + sqlOption
                + "' option (SQL) or "
                + builderMethod
                + " (DataStream builder).";
    }
}
