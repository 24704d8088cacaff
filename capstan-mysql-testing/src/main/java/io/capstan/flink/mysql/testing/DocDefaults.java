package io.capstan.flink.mysql.testing;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.util.TimeUtils;

import java.time.Duration;
import java.util.Locale;

/** Whether a default as the docs write it ({@code 30 s}, {@code `8096`}) is an option's default. */
public final class DocDefaults {

    private DocDefaults() {}

    public static boolean matches(ConfigOption<?> option, String cell) {
        String text = cell.replace("`", "").replace("()", "").trim();
        Object expected = option.defaultValue();
        try {
            if (expected instanceof Duration) {
                return TimeUtils.parseDuration(text).equals(expected);
            }
            if (expected instanceof Integer) {
                return Integer.valueOf(Integer.parseInt(text.replace(",", ""))).equals(expected);
            }
        } catch (IllegalArgumentException e) {
            return false;
        }
        return text.toLowerCase(Locale.ROOT).replace('_', '-').equals(String.valueOf(expected));
    }
}
