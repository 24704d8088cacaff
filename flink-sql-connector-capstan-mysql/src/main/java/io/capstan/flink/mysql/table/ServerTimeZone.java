package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.ValidationException;

import java.time.DateTimeException;
import java.time.ZoneId;

/**
 * The zone a MySQL server shows {@code TIMESTAMP} values in to a session that does not set its own:
 * its global {@code time_zone}, where {@code SYSTEM} means the host's zone as the server recorded
 * it at start ({@code system_time_zone}). Pure logic.
 */
final class ServerTimeZone {

    private ServerTimeZone() {}

    /**
     * @param timeZone {@code @@GLOBAL.time_zone}: {@code SYSTEM}, an offset such as {@code +05:30},
     *     or a named zone such as {@code Europe/Berlin}
     * @param systemTimeZone {@code @@system_time_zone}, e.g. {@code UTC} or {@code CET}
     * @throws ValidationException when the zone is none Java knows (the server records its host's
     *     zone as an abbreviation, such as {@code CEST}, which names no rules); the message asks
     *     for {@code server-time-zone}
     */
    static ZoneId of(String timeZone, String systemTimeZone) {
        boolean system = "SYSTEM".equalsIgnoreCase(timeZone.trim());
        String name = system ? systemTimeZone.trim() : timeZone.trim();
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new ValidationException(
                    "A MySQL TIMESTAMP column is declared TIMESTAMP(p), the wall clock in the"
                            + " server's time zone, but the server's time_zone is '"
                            + timeZone
                            + "'"
                            + (system ? " (system_time_zone '" + systemTimeZone + "')" : "")
                            + ", which is no zone id with known rules. Set 'server-time-zone' to"
                            + " the zone, e.g. 'Europe/Berlin' or '+05:30', or declare the column"
                            + " TIMESTAMP_LTZ(p) (the instant).");
        }
    }
}
