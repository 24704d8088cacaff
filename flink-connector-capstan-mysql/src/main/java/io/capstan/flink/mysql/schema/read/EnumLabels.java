package io.capstan.flink.mysql.schema.read;

import java.util.ArrayList;
import java.util.List;

/** Parses the labels out of an ENUM or SET {@code COLUMN_TYPE}, e.g. {@code enum('a','it''s')}. */
final class EnumLabels {

    private EnumLabels() {}

    static List<String> parse(String columnType) {
        List<String> labels = new ArrayList<>();
        int open = columnType.indexOf('(');
        int i = open + 1;
        while (open >= 0 && i < columnType.length()) {
            char c = columnType.charAt(i);
            if (c == '\'') {
                StringBuilder label = new StringBuilder();
                i++;
                while (i < columnType.length()) {
                    char d = columnType.charAt(i);
                    if (d == '\'') {
                        if (i + 1 < columnType.length() && columnType.charAt(i + 1) == '\'') {
                            label.append('\'');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    if (d == '\\' && i + 1 < columnType.length()) {
                        label.append(columnType.charAt(i + 1));
                        i += 2;
                        continue;
                    }
                    label.append(d);
                    i++;
                }
                labels.add(label.toString());
            } else if (c == ')') {
                break;
            } else {
                i++;
            }
        }
        return labels;
    }
}
