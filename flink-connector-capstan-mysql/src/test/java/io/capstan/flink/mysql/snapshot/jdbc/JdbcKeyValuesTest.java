package io.capstan.flink.mysql.snapshot.jdbc;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcKeyValuesTest {

    @Property(tries = 500)
    void timeTextRoundTrips(
            @ForAll @LongRange(min = -3_020_399_999_999L, max = 3_020_399_999_999L) long micros) {
        assertThat(JdbcKeyValues.parseTimeMicros(JdbcKeyValues.formatTimeMicros(micros)))
                .isEqualTo(micros);
    }

    @Test
    void parsesMySqlTimeText() {
        assertThat(JdbcKeyValues.parseTimeMicros("838:59:59")).isEqualTo(3_020_399_000_000L);
        assertThat(JdbcKeyValues.parseTimeMicros("-00:00:01.5")).isEqualTo(-1_500_000L);
        assertThat(JdbcKeyValues.formatTimeMicros(-1_500_000L)).isEqualTo("-0:00:01.500000");
    }
}
