package io.capstan.flink.mysql.source.enumerator;

import org.apache.flink.annotation.Internal;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * How long the server keeps binary logs before it purges them on its own, from its global
 * variables: {@code seconds} is 0 when it never purges automatically, and {@code setting} names the
 * variable that decided it (settings may appear in messages, the no-values rule).
 *
 * <p>This is the setting, not what is kept: the age of the oldest binary log is not readable over
 * SQL ({@code SHOW BINARY LOGS} lists names and sizes, {@code SHOW BINLOG EVENTS} shows no event
 * time; only the replication protocol carries the event headers' timestamps). A purge by hand or by
 * a cron job is caught by the {@code gtid_purged} watch ({@link HandoffStartWatch}), the check of
 * record.
 */
@Internal
public record BinlogRetention(long seconds, String setting) {

    static final String EXPIRE_SECONDS = "binlog_expire_logs_seconds";
    static final String EXPIRE_DAYS = "expire_logs_days";
    static final String AUTO_PURGE = "binlog_expire_logs_auto_purge";

    private static final long SECONDS_PER_DAY = 86_400;

    /** Whether the server purges binary logs on its own at all. */
    public boolean purgesAutomatically() {
        return seconds > 0;
    }

    /**
     * The retention as MySQL 8.0+ and MariaDB apply it: {@code binlog_expire_logs_auto_purge=OFF}
     * (8.0.29+) turns automatic purging off; else a positive {@code binlog_expire_logs_seconds}
     * wins; else a positive {@code expire_logs_days} (5.7, 8.0, MariaDB; a decimal on MariaDB
     * 10.6+) applies; else nothing is purged automatically.
     *
     * @param variable a global variable's value, empty when the server has no such variable
     * @return empty when the server has neither retention variable (or an unreadable value)
     */
    public static Optional<BinlogRetention> fromVariables(
            Function<String, Optional<String>> variable) {
        Optional<String> autoPurge = variable.apply(AUTO_PURGE);
        if (autoPurge.isPresent() && isOff(autoPurge.get())) {
            return Optional.of(new BinlogRetention(0, AUTO_PURGE));
        }
        Optional<Long> seconds = variable.apply(EXPIRE_SECONDS).flatMap(BinlogRetention::seconds);
        if (seconds.isPresent() && seconds.get() > 0) {
            return Optional.of(new BinlogRetention(seconds.get(), EXPIRE_SECONDS));
        }
        Optional<Long> days = variable.apply(EXPIRE_DAYS).flatMap(BinlogRetention::daysInSeconds);
        if (days.isPresent() && days.get() > 0) {
            return Optional.of(new BinlogRetention(days.get(), EXPIRE_DAYS));
        }
        if (seconds.isPresent() || days.isPresent()) {
            return Optional.of(
                    new BinlogRetention(0, seconds.isPresent() ? EXPIRE_SECONDS : EXPIRE_DAYS));
        }
        return Optional.empty();
    }

    private static boolean isOff(String value) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        return v.equals("OFF") || v.equals("0");
    }

    private static Optional<Long> seconds(String value) {
        try {
            return Optional.of(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> daysInSeconds(String value) {
        try {
            BigDecimal days = new BigDecimal(value.trim());
            return Optional.of(days.multiply(BigDecimal.valueOf(SECONDS_PER_DAY)).longValue());
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
    }
}
