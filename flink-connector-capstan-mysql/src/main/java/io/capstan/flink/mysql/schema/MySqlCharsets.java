package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * MySQL character sets: their canonical names, maximum bytes per character, and the Java charset
 * that decodes them exactly as MySQL Connector/J does (so binlog and JDBC strings agree).
 *
 * <p>{@code latin1} in MySQL is really Windows-1252; like Connector/J we decode it with Java's
 * {@code windows-1252}, so its five unassigned bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) become U+FFFD
 * on both paths.
 */
@Internal
public final class MySqlCharsets {

    /** The pseudo character set of binary strings. */
    public static final String BINARY = "binary";

    private static final Map<String, Integer> MAX_BYTES_PER_CHAR = new HashMap<>();
    private static final Map<String, String> JAVA_NAMES = new HashMap<>();

    static {
        String[] one = {
            "dec8",
            "cp850",
            "hp8",
            "koi8r",
            "latin1",
            "latin2",
            "swe7",
            "ascii",
            "hebrew",
            "tis620",
            "koi8u",
            "greek",
            "cp1250",
            "latin5",
            "armscii8",
            "cp866",
            "keybcs2",
            "macce",
            "macroman",
            "cp852",
            "latin7",
            "cp1251",
            "cp1256",
            "cp1257",
            "binary",
            "geostd8"
        };
        for (String c : one) {
            MAX_BYTES_PER_CHAR.put(c, 1);
        }
        for (String c : new String[] {"big5", "sjis", "euckr", "gb2312", "gbk", "ucs2", "cp932"}) {
            MAX_BYTES_PER_CHAR.put(c, 2);
        }
        for (String c : new String[] {"ujis", "utf8mb3", "eucjpms"}) {
            MAX_BYTES_PER_CHAR.put(c, 3);
        }
        for (String c : new String[] {"utf8mb4", "utf16", "utf16le", "utf32", "gb18030"}) {
            MAX_BYTES_PER_CHAR.put(c, 4);
        }
        // Java names as Connector/J maps them.
        JAVA_NAMES.put("utf8mb4", "UTF-8");
        JAVA_NAMES.put("utf8mb3", "UTF-8");
        JAVA_NAMES.put("latin1", "windows-1252");
        JAVA_NAMES.put("ascii", "US-ASCII");
        JAVA_NAMES.put("ucs2", "UTF-16BE");
        // Big-endian without a byte-order mark, as MySQL stores them: Java's "UTF-16" would take a
        // leading U+FEFF of a value for a byte-order mark and drop it. Java's UTF-32 decoders all
        // do, so TextConverters decodes utf32 values itself.
        JAVA_NAMES.put("utf16", "UTF-16BE");
        JAVA_NAMES.put("utf16le", "UTF-16LE");
        JAVA_NAMES.put("utf32", "UTF-32BE");
        JAVA_NAMES.put("latin2", "ISO-8859-2");
        JAVA_NAMES.put("latin5", "ISO-8859-9");
        JAVA_NAMES.put("latin7", "ISO-8859-13");
        JAVA_NAMES.put("greek", "ISO-8859-7");
        JAVA_NAMES.put("hebrew", "ISO-8859-8");
        JAVA_NAMES.put("cp1250", "windows-1250");
        JAVA_NAMES.put("cp1251", "windows-1251");
        JAVA_NAMES.put("cp1256", "windows-1256");
        JAVA_NAMES.put("cp1257", "windows-1257");
        JAVA_NAMES.put("koi8r", "KOI8-R");
        JAVA_NAMES.put("koi8u", "KOI8-U");
        JAVA_NAMES.put("sjis", "Shift_JIS");
        JAVA_NAMES.put("cp932", "windows-31j");
        JAVA_NAMES.put("ujis", "EUC-JP");
        JAVA_NAMES.put("eucjpms", "x-eucJP-Open");
        JAVA_NAMES.put("euckr", "EUC-KR");
        JAVA_NAMES.put("gb2312", "GB2312");
        JAVA_NAMES.put("gbk", "GBK");
        JAVA_NAMES.put("gb18030", "GB18030");
        JAVA_NAMES.put("big5", "Big5");
        JAVA_NAMES.put("tis620", "TIS-620");
        JAVA_NAMES.put("cp850", "IBM850");
        JAVA_NAMES.put("cp852", "IBM852");
        JAVA_NAMES.put("cp866", "IBM866");
        // jdk.charsets' x-MacRoman and x-MacCentralEurope.
        JAVA_NAMES.put("macroman", "MacRoman");
        JAVA_NAMES.put("macce", "MacCentralEurope");
    }

    private MySqlCharsets() {}

    /** The canonical name: lower case, {@code utf8} and {@code utf8mb3} both as {@code utf8mb3}. */
    public static String canonical(String name) {
        if (name == null) {
            return null;
        }
        String n = name.trim().toLowerCase(Locale.ROOT);
        return n.equals("utf8") ? "utf8mb3" : n;
    }

    /** The maximum bytes per character, or -1 if the character set is unknown. */
    public static int maxBytesPerChar(String canonicalName) {
        Integer n = MAX_BYTES_PER_CHAR.get(canonicalName);
        return n == null ? -1 : n;
    }

    /** Whether the single-byte space (0x20) pads values of this character set. */
    public static boolean isAsciiCompatible(String canonicalName) {
        switch (canonicalName) {
            case "ucs2":
            case "utf16":
            case "utf16le":
            case "utf32":
                return false;
            default:
                return true;
        }
    }

    /**
     * Whether every value MySQL stores in this character set decodes to its exact text in Java: the
     * Unicode encodings, whose values the server validates (so a U+FFFD in the text is a U+FFFD in
     * the value, not an undecodable byte). Single-byte sets with unassigned bytes, and the other
     * multibyte sets, may hold bytes Java decodes as U+FFFD.
     */
    public static boolean decodesLosslessly(String canonicalName) {
        switch (canonicalName) {
            case "utf8mb4":
            case "utf8mb3":
            case "utf16":
            case "utf16le":
            case "utf32":
            case "gb18030":
                return true;
            default:
                return false;
        }
    }

    /** The Java charset decoding this MySQL character set, or null if Java has none. */
    public static Charset javaCharset(String canonicalName) {
        if (canonicalName.equals("utf8mb4") || canonicalName.equals("utf8mb3")) {
            return StandardCharsets.UTF_8;
        }
        String javaName = JAVA_NAMES.get(canonicalName);
        try {
            return Charset.forName(javaName != null ? javaName : canonicalName);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
