package io.capstan.flink.mysql.gtid;

import io.capstan.flink.mysql.gtid.MariaDbGtidPosition.DomainGtid;
import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MariaDB positions: the text as {@code @@gtid_binlog_pos} prints it (the texts are those {@code
 * MariaDbBinlogFactsIT} saw), refusals that name the problem, per-domain holds, advance and meet.
 */
@Tag(FlinkLines.NEUTRAL)
class MariaDbGtidPositionTest {

    @Test
    void theServersTextRoundTripsWithDomainsInNumericOrder() {
        String text = "1-7-4,5-9-2,20-7-1";

        MariaDbGtidPosition p = MariaDbGtidPosition.parse(text);

        assertThat(p).hasToString(text);
        assertThat(p.gtids())
                .containsExactly(
                        new DomainGtid(1, 7, 4), new DomainGtid(5, 9, 2), new DomainGtid(20, 7, 1));
        assertThat(MariaDbGtidPosition.parse(" 20-7-1 , 1-7-4,5-9-2\n")).isEqualTo(p);
        assertThat(MariaDbGtidPosition.parse(" 20-7-1 , 1-7-4,5-9-2\n")).hasToString(text);
    }

    @Test
    void theEmptyTextIsTheEmptyPosition() {
        assertThat(MariaDbGtidPosition.parse("")).isEqualTo(MariaDbGtidPosition.empty());
        assertThat(MariaDbGtidPosition.parse("  ").isEmpty()).isTrue();
        assertThat(MariaDbGtidPosition.empty()).hasToString("");
    }

    @Test
    void theLimitsOfEachNumberAreAccepted() {
        String text = "4294967295-4294967295-9223372036854775806,0-0-0";

        MariaDbGtidPosition p = MariaDbGtidPosition.parse(text);

        assertThat(p).hasToString("0-0-0,4294967295-4294967295-9223372036854775806");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "1-7|'1-7' is not domain-server-sequence",
                "1-7-4-2|'1-7-4-2' is not domain-server-sequence",
                "x-7-4|in 'x-7-4' the domain id is not a number",
                "1--4|in '1--4' the server id is not a number",
                "1-7-|in '1-7-' the sequence number is not a number",
                "-1-7-4|'-1-7-4' is not domain-server-sequence",
                "1-7-+4|in '1-7-+4' the sequence number is not a number",
                "1-7-0x4|in '1-7-0x4' the sequence number is not a number",
                "4294967296-7-4|in '4294967296-7-4' the domain id is above 4294967295",
                "1-4294967296-4|in '1-4294967296-4' the server id is above 4294967295",
                "1-7-9223372036854775807|the sequence number is above 9223372036854775806",
                "1-7-99999999999999999999|the sequence number is above 9223372036854775806",
                "1-7-123456789012345678901|the sequence number is above 9223372036854775806",
                "1-7-4,,2-9-1|entry 2 of 3 is empty",
                "1-7-4,|entry 2 of 2 is empty",
                "5-7-1,5-9-2|domain 5 appears twice ('5-7-1', '5-9-2')",
            })
    void malformedTextIsRefusedNamingTheProblem(String text, String problem) {
        assertThatThrownBy(() -> MariaDbGtidPosition.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid MariaDB GTID position: ")
                .hasMessageContaining(problem);
    }

    @Test
    void aRefusalQuotesOnlyTheOffendingEntryCutWhenLong() {
        String longEntry = "1-7-" + "9".repeat(100) + "x";

        assertThatThrownBy(() -> MariaDbGtidPosition.parse("3-7-1,other-entry-here," + longEntry))
                .hasMessageContaining("'other-entry-here'")
                .hasMessageNotContaining("3-7-1");
        assertThatThrownBy(() -> MariaDbGtidPosition.parse("3-7-1," + longEntry))
                .hasMessageContaining(longEntry.substring(0, 60) + "...")
                .hasMessageNotContaining(longEntry)
                .hasMessageNotContaining("3-7-1");
        assertThatThrownBy(() -> MariaDbGtidPosition.parse(null)).hasMessageContaining("null");
    }

    @Test
    void aPositionHoldsPerDomainWhateverTheServerId() {
        MariaDbGtidPosition p = MariaDbGtidPosition.parse("1-7-4,2-9-10");

        assertThat(p.holds(new DomainGtid(1, 7, 4))).isTrue();
        assertThat(p.holds(new DomainGtid(1, 7, 3))).isTrue();
        assertThat(p.holds(new DomainGtid(1, 5, 2))).isTrue(); // another server id, same domain
        assertThat(p.holds(new DomainGtid(1, 7, 5))).isFalse();
        assertThat(p.holds(new DomainGtid(3, 7, 1))).isFalse(); // a domain it lacks
        assertThat(p.contains(MariaDbGtidPosition.parse("2-7-10"))).isTrue();
        assertThat(p.contains(MariaDbGtidPosition.parse("1-7-4,2-9-11"))).isFalse();
        assertThat(p.contains(MariaDbGtidPosition.parse("1-7-1,3-7-1"))).isFalse();
        assertThat(p.contains(MariaDbGtidPosition.empty())).isTrue();
        assertThat(MariaDbGtidPosition.empty().contains(p)).isFalse();
    }

    @Test
    void advanceReplacesTheDomainsGtidOrAddsANewDomain() {
        MariaDbGtidPosition p = MariaDbGtidPosition.parse("1-7-4,5-7-2");

        assertThat(p.advance(new DomainGtid(5, 9, 3))).hasToString("1-7-4,5-9-3");
        assertThat(p.advance(new DomainGtid(3, 9, 1))).hasToString("1-7-4,3-9-1,5-7-2");
        assertThat(p.advance(new DomainGtid(1, 7, 100))).hasToString("1-7-100,5-7-2");
        assertThat(p).hasToString("1-7-4,5-7-2"); // immutable
    }

    @Test
    void advanceRefusesAGtidThatDoesNotFollowItsDomain() {
        MariaDbGtidPosition p = MariaDbGtidPosition.parse("1-7-4");

        assertThat(p.holds(new DomainGtid(1, 9, 4))).isTrue();
        assertThatThrownBy(() -> p.advance(new DomainGtid(1, 9, 4)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "MariaDB GTID 1-9-4 does not follow the position's 1-7-4 of domain 1:"
                                + " sequence numbers of a domain must grow (gtid_strict_mode)");
        assertThatThrownBy(() -> p.advance(new DomainGtid(1, 7, 3)))
                .hasMessageContaining("1-7-3 does not follow");
    }

    @Test
    void theMeetKeepsPerCommonDomainTheSmallerGtidWithItsServerId() {
        MariaDbGtidPosition a = MariaDbGtidPosition.parse("1-7-4,2-7-9,3-7-1");
        MariaDbGtidPosition b = MariaDbGtidPosition.parse("1-9-6,2-9-8,4-9-1");

        assertThat(a.meet(b)).hasToString("1-7-4,2-9-8");
        assertThat(b.meet(a)).isEqualTo(a.meet(b));
        assertThat(a.meet(MariaDbGtidPosition.empty()).isEmpty()).isTrue();
    }

    @Test
    void ofRefusesTwoGtidsOfOneDomain() {
        assertThat(
                        MariaDbGtidPosition.of(
                                List.of(new DomainGtid(2, 1, 1), new DomainGtid(1, 1, 1))))
                .hasToString("1-1-1,2-1-1");
        assertThatThrownBy(
                        () ->
                                MariaDbGtidPosition.of(
                                        List.of(new DomainGtid(2, 1, 1), new DomainGtid(2, 3, 4))))
                .hasMessageContaining("domain 2 appears twice ('2-1-1', '2-3-4')");
    }

    @Test
    void oneGtidParsesAndRefusesAsAPositionDoes() {
        assertThat(DomainGtid.parse(" 2-9-1 ")).isEqualTo(new DomainGtid(2, 9, 1));
        assertThatThrownBy(() -> DomainGtid.parse("2-9"))
                .hasMessageStartingWith("Invalid MariaDB GTID: '2-9' is not");
        assertThatThrownBy(() -> new DomainGtid(1, 1, -1))
                .hasMessageContaining("sequence number out of range");
    }
}
