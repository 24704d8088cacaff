package io.capstan.flink.mysql.source.enumerator;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Which retention the server applies, from its variables. */
class BinlogRetentionTest {

    private static Optional<BinlogRetention> of(String... nameValue) {
        Map<String, String> v = new java.util.HashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            v.put(nameValue[i], nameValue[i + 1]);
        }
        return BinlogRetention.fromVariables(name -> Optional.ofNullable(v.get(name)));
    }

    @Test
    void theSecondsWinOverTheDays() {
        assertThat(of("binlog_expire_logs_seconds", "3600", "expire_logs_days", "7"))
                .contains(new BinlogRetention(3600, "binlog_expire_logs_seconds"));
    }

    @Test
    void theDaysApplyWhenTheSecondsAreZeroOrAbsent() {
        assertThat(of("binlog_expire_logs_seconds", "0", "expire_logs_days", "2"))
                .contains(new BinlogRetention(2 * 86_400, "expire_logs_days"));
        // MySQL 5.7 has only the days; MariaDB 10.6+ shows them as a decimal
        assertThat(of("expire_logs_days", "0.500000"))
                .contains(new BinlogRetention(43_200, "expire_logs_days"));
    }

    @Test
    void zeroEverywhereOrAutoPurgeOffMeansNoAutomaticPurge() {
        BinlogRetention none = of("binlog_expire_logs_seconds", "0", "expire_logs_days", "0").get();
        assertThat(none.seconds()).isZero();
        assertThat(none.purgesAutomatically()).isFalse();
        assertThat(of("binlog_expire_logs_auto_purge", "OFF", "binlog_expire_logs_seconds", "3600"))
                .contains(new BinlogRetention(0, "binlog_expire_logs_auto_purge"));
        assertThat(of("binlog_expire_logs_auto_purge", "ON", "binlog_expire_logs_seconds", "60"))
                .contains(new BinlogRetention(60, "binlog_expire_logs_seconds"));
    }

    @Test
    void noRetentionVariableIsUnknown() {
        assertThat(of("log_bin", "ON")).isEmpty();
        assertThat(of("binlog_expire_logs_seconds", "soon")).isEmpty();
    }
}
