package io.capstan.flink.mysql.snapshot.jdbc;

import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Deterministic strings that probe a collation where it is subtle: case, accents and their
 * decompositions ({@code é} and {@code e}+U+0301, {@code ß} and {@code ss}), trailing spaces and
 * characters below the space (tab, newline), leading and embedded spaces, the empty string, digits
 * against letters, punctuation, ignorable characters, CJK, emoji and other supplementary
 * characters. Near-variants of seed words make ties and near-ties frequent, which is where a wrong
 * order shows. Every string is limited to what the column's character set holds.
 */
final class CollationTestStrings {

    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String DIGITS = "0123456789";
    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    private static final String BELOW_AND_AT_SPACE = "  \t\t\n\r\u0001\u001f";
    private static final String LATIN1 =
            "àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßŸ"
                    + "\u00a0¡¿«»°²³¹½¼¾×÷µ¶§©®ªº€ŠšŒœŽžƒˆ˜‘’‚“”„–—…†‡•‰‹›™";
    private static final String BMP =
            "\u0300\u0301\u0302\u0308\u030a\u0327ıİǆǅǄﬁﬀﬆẞǰＡａｱアあァぁー中文日本한글αΩωςσжЖاאก"
                    + "\u3000\u200b\u00ad\ufeff\ufffd\ue000₂ⅳⅣ";
    private static final String SUPPLEMENTARY = "😀😁👍🏽🇫🇷𝔸𝐀𠀀𠜎𐍈🀄\udbff\udffd";

    /** Words whose variants the collations hold equal or nearly so. */
    private static final String[] SEEDS = {
        "",
        " ",
        "a",
        "A",
        "abc",
        "ABC",
        "Abc",
        "aBc",
        "straße",
        "strasse",
        "STRASSE",
        "café",
        "cafe",
        "CAFÉ",
        "résumé",
        "resume",
        "naïve",
        "naive",
        "Ångström",
        "angstrom",
        "æ",
        "ae",
        "ß",
        "ss",
        "ä",
        "a\u0308",
        "é",
        "e\u0301",
        "É",
        "E\u0301",
        "1",
        "10",
        "2",
        "9",
        "a1",
        "a10",
        "a2",
        "A-1",
        "a_1",
        "a.b",
        "ab",
        "a b",
        "a  b",
        "a\tb",
        "x",
        "X",
        "zz",
        "z",
        "Ü",
        "ue",
        "ø",
        "o",
        "œ",
        "oe",
        "ﬁ",
        "fi",
        "Ａ",
        "中文",
        "日本",
        "😀",
        "👍🏽",
        "İ",
        "i",
        "ı",
        "I",
        "€",
        "Ÿ",
        "ÿ"
    };

    private static final String[] TRAILERS = {
        " ", "  ", "   ", "\t", " \t", "\t ", "\n", " \n", "\u00a0", "\u3000", "\u0001"
    };
    private static final String[][] ACCENTED = {
        {"a", "àáâäåãæ"}, {"e", "éèêë"}, {"i", "íìîïı"}, {"o", "óòôöøœ"}, {"u", "úùûü"},
        {"c", "ç"}, {"n", "ñ"}, {"s", "ßš"}, {"y", "ýÿ"}, {"z", "ž"}
    };

    private static final int MAX_CHARS = 64;

    private final Random random;
    private final String charset;
    private final CharsetEncoder cp1252 = Charset.forName("windows-1252").newEncoder();

    private CollationTestStrings(Random random, String charset) {
        this.random = random;
        this.charset = charset;
    }

    /** {@code count} strings for a column of {@code charset} (MySQL's name), from the seed. */
    static List<String> generate(long seed, String charset, int count) {
        return new CollationTestStrings(new Random(seed), charset).generate(count);
    }

    private List<String> generate(int count) {
        List<String> out = new ArrayList<>(count);
        while (out.size() < count) {
            int mode = random.nextInt(10);
            String s;
            if (mode < 4) {
                s = randomString();
            } else if (mode < 8 || out.isEmpty()) {
                s = mutate(SEEDS[random.nextInt(SEEDS.length)]);
            } else {
                s = mutate(out.get(random.nextInt(out.size())));
            }
            out.add(holdable(s));
        }
        return out;
    }

    private String randomString() {
        int length = random.nextInt(20) == 0 ? random.nextInt(MAX_CHARS + 1) : random.nextInt(10);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int pool = random.nextInt(10);
            String from =
                    pool < 4
                            ? LETTERS
                            : pool == 4
                                    ? DIGITS
                                    : pool == 5
                                            ? PUNCTUATION
                                            : pool == 6
                                                    ? BELOW_AND_AT_SPACE
                                                    : pool == 7
                                                            ? LATIN1
                                                            : pool == 8 ? BMP : SUPPLEMENTARY;
            sb.appendCodePoint(anyCodePoint(from));
        }
        return sb.toString();
    }

    private String mutate(String s) {
        int steps = 1 + random.nextInt(3);
        for (int i = 0; i < steps; i++) {
            switch (random.nextInt(11)) {
                case 0:
                    s = s.toUpperCase(Locale.ROOT); // also ß -> SS
                    break;
                case 1:
                    s = s.toLowerCase(Locale.ROOT);
                    break;
                case 2:
                    s = flipCaseOfOne(s);
                    break;
                case 3:
                    s = accentOne(s);
                    break;
                case 4:
                    s = Normalizer.normalize(s, Normalizer.Form.NFD);
                    break;
                case 5:
                    s = Normalizer.normalize(s, Normalizer.Form.NFC);
                    break;
                case 6:
                case 7:
                    s = s + TRAILERS[random.nextInt(TRAILERS.length)];
                    break;
                case 8:
                    s = (random.nextBoolean() ? " " : "\t") + s;
                    break;
                case 9:
                    int at = random.nextInt(s.length() + 1);
                    if (at > 0 && Character.isHighSurrogate(s.charAt(at - 1))) {
                        at--; // never split a surrogate pair
                    }
                    s = s.substring(0, at) + " " + s.substring(at);
                    break;
                default:
                    s = s.contains("ss") ? s.replace("ss", "ß") : s.replace("ß", "ss");
                    s =
                            s
                                    + (random.nextBoolean()
                                            ? ""
                                            : String.valueOf(DIGITS.charAt(random.nextInt(10))));
            }
        }
        return s;
    }

    private String flipCaseOfOne(String s) {
        if (s.isEmpty()) {
            return s;
        }
        int[] cps = s.codePoints().toArray();
        int i = random.nextInt(cps.length);
        cps[i] =
                Character.isUpperCase(cps[i])
                        ? Character.toLowerCase(cps[i])
                        : Character.toUpperCase(cps[i]);
        return new String(cps, 0, cps.length);
    }

    private String accentOne(String s) {
        for (String[] base : ACCENTED) {
            int at = s.indexOf(base[0]);
            if (at >= 0 && random.nextBoolean()) {
                String variants = base[1];
                return s.substring(0, at)
                        + variants.charAt(random.nextInt(variants.length()))
                        + s.substring(at + 1);
            }
        }
        return s;
    }

    private int anyCodePoint(String from) {
        int[] cps = from.codePoints().toArray();
        return cps[random.nextInt(cps.length)];
    }

    /** The characters of {@code s} the character set holds, at most {@link #MAX_CHARS}. */
    private String holdable(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().filter(this::holds).limit(MAX_CHARS).forEach(sb::appendCodePoint);
        return sb.toString();
    }

    private boolean holds(int cp) {
        if (cp == 0) {
            return false;
        }
        switch (charset) {
            case "ascii":
                return cp <= 0x7f;
            case "latin1": // MySQL's latin1 is windows-1252
                return Character.isBmpCodePoint(cp) && cp1252.canEncode((char) cp);
            case "utf8":
            case "utf8mb3":
                return Character.isBmpCodePoint(cp);
            case "utf8mb4":
                return true;
            default:
                throw new IllegalArgumentException("no test strings for character set " + charset);
        }
    }
}
