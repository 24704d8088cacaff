package io.capstan.flink.mysql.snapshot.key;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Weight comparison as the server compares values. The weights here are the ones MySQL 8.0.15
 * returns (checked by hand with WEIGHT_STRING): utf8mb4_general_ci 'a' = 0041, 'a\t' = 00410009, 'a
 * ' = 004100200020, space = 0020; utf8mb4_0900_ai_ci 'a' = 1C47, 'a ' = 1C470209.
 */
class KeyCollationTest {

    static final KeyCollation GENERAL_CI =
            new KeyCollation("utf8mb4_general_ci", "utf8mb4", true, hex("0020"));
    static final KeyCollation AI_CI =
            new KeyCollation("utf8mb4_0900_ai_ci", "utf8mb4", false, hex("0209"));

    static byte[] hex(String h) {
        return java.util.HexFormat.of().parseHex(h);
    }

    @Test
    void padSpaceIgnoresTrailingSpacesButNotCharactersBelowTheSpace() {
        assertThat(GENERAL_CI.compareWeights(hex("0041"), hex("004100200020"))).isZero();
        // 'a\t' < 'a' under PAD SPACE ('a' is 'a' followed by spaces, and tab < space)
        assertThat(GENERAL_CI.compareWeights(hex("00410009"), hex("0041"))).isNegative();
        assertThat(GENERAL_CI.compareWeights(hex("0041"), hex("00410009"))).isPositive();
        assertThat(GENERAL_CI.compareWeights(hex("00410021"), hex("0041"))).isPositive();
        assertThat(GENERAL_CI.compareWeights(hex("0041"), hex("0042"))).isNegative();
    }

    @Test
    void noPadComparesBytewiseWithAPrefixFirst() {
        assertThat(AI_CI.compareWeights(hex("1C47"), hex("1C470209"))).isNegative();
        assertThat(AI_CI.compareWeights(hex("1C470201"), hex("1C47"))).isPositive();
        assertThat(AI_CI.compareWeights(hex("1C47"), hex("1C47"))).isZero();
    }

    @Test
    void namesThatAreNotPlainIdentifiersNeverReachSqlText() {
        assertThatThrownBy(() -> new KeyCollation("x; DROP", "utf8mb4", true, hex("20")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AI_CI.weightOf("?"))
                .isEqualTo("WEIGHT_STRING(CONVERT(? USING utf8mb4) COLLATE utf8mb4_0900_ai_ci)");
    }
}
