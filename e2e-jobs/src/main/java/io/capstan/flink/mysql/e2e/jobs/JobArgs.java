package io.capstan.flink.mysql.e2e.jobs;

import java.util.HashMap;
import java.util.Map;

/** {@code --name value} program arguments of the e2e jobs, with errors that name the argument. */
public final class JobArgs {
    private final Map<String, String> values;

    private JobArgs(Map<String, String> values) {
        this.values = values;
    }

    public static JobArgs parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException(
                        "Expected --name value pairs; argument " + (i + 1) + " is not one");
            }
            values.put(args[i].substring(2), args[++i]);
        }
        return new JobArgs(values);
    }

    public String required(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("Missing required job argument --" + name);
        }
        return value;
    }

    public String string(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    public long longValue(String name, long defaultValue) {
        String value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Job argument --" + name + " must be a whole number");
        }
    }

    public boolean booleanValue(String name, boolean defaultValue) {
        String value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default ->
                    throw new IllegalArgumentException(
                            "Job argument --" + name + " must be true or false");
        };
    }
}
