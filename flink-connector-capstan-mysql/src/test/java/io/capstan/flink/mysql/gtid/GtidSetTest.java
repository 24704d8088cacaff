package io.capstan.flink.mysql.gtid;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GtidSetTest {

    private static final String A = "2174b383-5441-11e8-b90a-c80aa9429562";
    private static final String B = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String C = "8a94f357-aab4-11df-86ab-c80aa9429563";

    @Test
    void intervalsAreVisitedInCanonicalOrderAndRebuildTheSet() {
        String u1 = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        String u2 = "4e11fa47-71ca-11e1-9e33-c80aa9429562";
        GtidSet set = GtidSet.parse(u2 + ":4," + u1 + ":1-5:7:t2:9:t1:3-4");
        List<String> seen = new ArrayList<>();
        GtidSet.Builder rebuilt = GtidSet.builder();
        set.forEachInterval(
                (uuid, tag, first, end) -> {
                    seen.add(uuid.substring(0, 1) + "/" + tag + "/" + first + "-" + end);
                    rebuilt.addRange(uuid, tag, first, end - 1);
                });
        assertThat(seen).containsExactly("3//1-6", "3//7-8", "3/t1/3-5", "3/t2/9-10", "4//4-5");
        assertThat(rebuilt.build()).isEqualTo(set);
    }

    @Test
    void parsesMySqlOutputWithNewlinesAndUpperCase() {
        // The shape of SELECT @@global.gtid_executed on a replica with several sources.
        String mysql = B.toUpperCase() + ":1-5:11-18,\n" + A + ":1-27,\n " + C + ":3";
        GtidSet set = GtidSet.parse(mysql);
        assertThat(set.toString()).isEqualTo(A + ":1-27," + B + ":1-5:11-18," + C + ":3");
        assertThat(set.contains(Gtid.of(B, 5))).isTrue();
        assertThat(set.contains(Gtid.of(B, 6))).isFalse();
        assertThat(set.contains(Gtid.of(B, 11))).isTrue();
        assertThat(set.contains(Gtid.of(B, 18))).isTrue();
        assertThat(set.contains(Gtid.of(B, 19))).isFalse();
        assertThat(set.contains(Gtid.of(C, 3))).isTrue();
        assertThat(set.contains(Gtid.of(C, 2))).isFalse();
        assertThat(set.sourceIds()).containsExactly(A, B, C);
    }

    @Test
    void parsesTaggedForm() {
        GtidSet set = GtidSet.parse(B + ":1-5:Tag1:1-3:tag2:7");
        assertThat(set.contains(Gtid.of(B, 5))).isTrue();
        assertThat(set.contains(Gtid.of(B, "tag1", 3))).isTrue();
        assertThat(set.contains(Gtid.of(B, "tag1", 4))).isFalse();
        assertThat(set.contains(Gtid.of(B, "tag2", 7))).isTrue();
        assertThat(set.contains(Gtid.of(B, 7))).isFalse();
        assertThat(set.toString()).isEqualTo(B + ":1-5:tag1:1-3:tag2:7");
        assertThat(set.sourceIds()).containsExactly(B);
    }

    @Test
    void printsOneCanonicalForm() {
        // Tags before untagged, split entries, unsorted, overlapping and adjacent ranges.
        GtidSet messy =
                GtidSet.parse(
                        " "
                                + B
                                + ":zz:4:aa:2-3 , "
                                + B
                                + ":9:4-5:1-3 ,,\n"
                                + A
                                + ":10-12:1-9 , "
                                + B
                                + ":aa:1:zz:5-6 ");
        assertThat(messy.toString()).isEqualTo(A + ":1-12," + B + ":1-5:9:aa:1-3:zz:4-6");
        assertThat(GtidSet.parse(messy.toString())).isEqualTo(messy);
        assertThat(GtidSet.parse(B + ":1-3:4-5")).hasToString(B + ":1-5");
        assertThat(GtidSet.parse(B + ":tagonly:1")).hasToString(B + ":tagonly:1");
        assertThat(GtidSet.parse(B + ":7-7")).hasToString(B + ":7");
    }

    @Test
    void emptyText() {
        assertThat(GtidSet.parse("")).isEqualTo(GtidSet.empty()).hasToString("");
        assertThat(GtidSet.parse(" \n")).isEqualTo(GtidSet.empty());
        assertThat(GtidSet.empty().isEmpty()).isTrue();
        assertThat(GtidSet.empty().contains(Gtid.of(A, 1))).isFalse();
        assertThat(GtidSet.parse(A + ":1").isEmpty()).isFalse();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:5-3 | '5-3'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:0 | '0'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:0-4 | '0'",
                "3e11fa47-71ca-11e1-9e33-c80aa942956x:1 | '3e11fa47-71ca-11e1-9e33-c80aa942956x'",
                "3e11fa4771ca11e19e33c80aa9429562:1 | '3e11fa4771ca11e19e33c80aa9429562'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562 | '3e11fa47-71ca-11e1-9e33-c80aa9429562'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562: | ':'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1::2 | ':'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-x | '1-x'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-2-3 | '1-2-3'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:-3 | '-3'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:bad-tag:1 | 'bad-tag'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:t:1:9lives:2 | '9lives'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:1 | 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1:tag | 'tag'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:a:b:1 | 'a'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:9223372036854775807 | '9223372036854775807'",
                "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-99999999999999999999 | '1-99999999999999999999'",
            })
    void rejectsInvalidTextQuotingTheFragment(String text, String fragment) {
        assertThatThrownBy(() -> GtidSet.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid GTID set: ")
                .hasMessageContaining(fragment);
    }

    @Test
    void acceptsTheLargestTransactionNumber() {
        GtidSet set = GtidSet.parse(A + ":9223372036854775805-9223372036854775806");
        assertThat(set.contains(Gtid.of(A, Gtid.MAX_TRANSACTION_ID))).isTrue();
        assertThat(set.add(Gtid.of(A, 1)).toString())
                .isEqualTo(A + ":1:9223372036854775805-9223372036854775806");
    }

    @Test
    void setOperations() {
        GtidSet x = GtidSet.parse(A + ":1-10:20-30," + B + ":1-5");
        GtidSet y = GtidSet.parse(A + ":5-25," + C + ":1");
        assertThat(x.union(y)).hasToString(A + ":1-30," + B + ":1-5," + C + ":1");
        assertThat(x.intersect(y)).hasToString(A + ":5-10:20-25");
        assertThat(x.subtract(y)).hasToString(A + ":1-4:26-30," + B + ":1-5");
        assertThat(y.subtract(x)).hasToString(A + ":11-19," + C + ":1");
        assertThat(x.containsAll(GtidSet.parse(A + ":2-9:21," + B + ":5"))).isTrue();
        assertThat(x.containsAll(GtidSet.parse(A + ":10-11"))).isFalse();
        assertThat(x.containsAll(GtidSet.parse(C + ":1"))).isFalse();
        assertThat(x.containsAll(GtidSet.empty())).isTrue();
        assertThat(GtidSet.parse(A + ":1:t:1").subtract(GtidSet.parse(A + ":t:1")))
                .hasToString(A + ":1");
    }

    @Test
    void addExtendsMergesAndSharesUnchangedSources() {
        GtidSet s = GtidSet.parse(A + ":1-3:5," + B + ":1");
        assertThat(s.add(Gtid.of(A, 4))).hasToString(A + ":1-5," + B + ":1");
        assertThat(s.add(Gtid.of(A, 6))).hasToString(A + ":1-3:5-6," + B + ":1");
        assertThat(s.add(Gtid.of(A, 9))).hasToString(A + ":1-3:5:9," + B + ":1");
        assertThat(s.add(Gtid.of(B, "t", 2))).hasToString(A + ":1-3:5," + B + ":1:t:2");
        assertThat(s.add(Gtid.of(C, 1))).hasToString(A + ":1-3:5," + B + ":1," + C + ":1");
        assertThat(s.add(Gtid.of(A, 2))).isSameAs(s);
        // the original is unchanged
        assertThat(s).hasToString(A + ":1-3:5," + B + ":1");
        assertThat(GtidSet.of(Gtid.of(A, "t", 3))).hasToString(A + ":t:3");
    }

    @Test
    void builderAcceptsAdditionsInAnyOrder() {
        GtidSet built =
                GtidSet.builder()
                        .add(Gtid.of(B, 7))
                        .add(Gtid.of(B, 1))
                        .add(Gtid.of(B, 2))
                        .addRange(A, "", 3, 4)
                        .addRange(A.toUpperCase(), "T", 1, 1)
                        .addAll(GtidSet.parse(B + ":3-6"))
                        .build();
        assertThat(built).hasToString(A + ":3-4:t:1," + B + ":1-7");
        assertThatThrownBy(() -> GtidSet.builder().addRange(A, "", 5, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5-4");
    }

    @Test
    void equalSetsAreEqualAndHashAlike() {
        GtidSet one = GtidSet.parse(B + ":1-2:3," + A + ":5");
        GtidSet two = GtidSet.parse(A + ":5," + B.toUpperCase() + ":1-3");
        assertThat(one).isEqualTo(two).hasSameHashCodeAs(two).hasToString(two.toString());
        assertThat(one).isNotEqualTo(GtidSet.parse(A + ":5"));
    }

    @Test
    void serializesRoundTrip() throws Exception {
        GtidSet s = GtidSet.parse(A + ":1-3:5:t:1," + B + ":9");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
            out.writeObject(GtidSet.empty());
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(s);
            assertThat(in.readObject()).isSameAs(GtidSet.empty());
        }
    }

    @Test
    void transactionCountCountsEveryRangeOfEverySource() {
        assertThat(GtidSet.empty().transactionCount()).isZero();
        assertThat(
                        GtidSet.parse(
                                        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:11,"
                                                + "2174b383-5441-11e8-b90a-c80aa9429562:1-3:tag_a:7")
                                .transactionCount())
                .isEqualTo(10);
    }
}
