package io.capstan.flink.mysql;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The option values a {@link CapstanMySqlSourceBuilder} collects. A null value clears an option;
 * for an option with a default, a null is refused when the values are read, as a bad value would
 * be, so that {@code build()} names it instead of silently taking the default.
 */
final class BuilderOptions {

    private final Configuration values = new Configuration();
    private final Set<ConfigOption<?>> nulls = new LinkedHashSet<>();

    <V> void set(ConfigOption<V> option, V value) {
        if (value == null) {
            values.removeConfig(option);
            if (option.hasDefaultValue()) {
                nulls.add(option);
            }
        } else {
            values.set(option, value);
            nulls.remove(option);
        }
    }

    /**
     * The values set.
     *
     * @throws IllegalArgumentException naming an option with a default that was given null
     */
    Configuration values() {
        if (!nulls.isEmpty()) {
            throw OptionRules.invalid(nulls.iterator().next(), "it must not be null.");
        }
        return values;
    }
}
