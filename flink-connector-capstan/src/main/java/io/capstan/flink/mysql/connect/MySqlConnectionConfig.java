package io.capstan.flink.mysql.connect;

import java.io.Serializable;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How to reach one MySQL server: address, credentials and connection behaviour, shared by the JDBC
 * and the binlog connection. Immutable and serializable; {@link #toString()} never shows the
 * password (Rule 1).
 */
public final class MySqlConnectionConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String hostname;
    private final int port;
    private final String username;
    private final String password;
    private final Duration connectTimeout;
    private final int maxRetries;
    private final SslMode sslMode;
    private final Duration heartbeatInterval;
    private final Map<String, String> jdbcProperties;

    private MySqlConnectionConfig(Builder b) {
        this.hostname = requireText(b.hostname, "hostname");
        if (b.port < 1 || b.port > 65535) {
            throw new IllegalArgumentException("port must be in 1..65535, was " + b.port);
        }
        this.port = b.port;
        this.username = requireText(b.username, "username");
        this.password = b.password == null ? "" : b.password;
        this.connectTimeout = positive(b.connectTimeout, "connect.timeout");
        if (b.maxRetries < 0) {
            throw new IllegalArgumentException("connect.max-retries must be >= 0, was " + b.maxRetries);
        }
        this.maxRetries = b.maxRetries;
        this.sslMode = Objects.requireNonNull(b.sslMode, "sslMode");
        this.heartbeatInterval = positive(b.heartbeatInterval, "heartbeat.interval");
        this.jdbcProperties = Collections.unmodifiableMap(new TreeMap<>(b.jdbcProperties));
    }

    public static Builder builder() {
        return new Builder();
    }

    public String hostname() {
        return hostname;
    }

    public int port() {
        return port;
    }

    public String username() {
        return username;
    }

    /** The password; hand it only to a driver, never to a message. */
    public String password() {
        return password;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** Attempts after the first before a connection failure is final. */
    public int maxRetries() {
        return maxRetries;
    }

    public SslMode sslMode() {
        return sslMode;
    }

    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    /** Extra JDBC driver properties passed through unchanged. */
    public Map<String, String> jdbcProperties() {
        return jdbcProperties;
    }

    /** The server's address as {@code host:port}, for messages. */
    public String address() {
        return hostname + ":" + port;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.hostname = hostname;
        b.port = port;
        b.username = username;
        b.password = password;
        b.connectTimeout = connectTimeout;
        b.maxRetries = maxRetries;
        b.sslMode = sslMode;
        b.heartbeatInterval = heartbeatInterval;
        b.jdbcProperties.putAll(jdbcProperties);
        return b;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof MySqlConnectionConfig)) {
            return false;
        }
        MySqlConnectionConfig that = (MySqlConnectionConfig) o;
        return port == that.port
                && maxRetries == that.maxRetries
                && hostname.equals(that.hostname)
                && username.equals(that.username)
                && password.equals(that.password)
                && connectTimeout.equals(that.connectTimeout)
                && sslMode == that.sslMode
                && heartbeatInterval.equals(that.heartbeatInterval)
                && jdbcProperties.equals(that.jdbcProperties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(hostname, port, username, connectTimeout, maxRetries, sslMode);
    }

    @Override
    public String toString() {
        return "MySqlConnectionConfig{address="
                + address()
                + ", username="
                + username
                + ", password=******, connectTimeout="
                + connectTimeout
                + ", maxRetries="
                + maxRetries
                + ", sslMode="
                + sslMode
                + ", heartbeatInterval="
                + heartbeatInterval
                + ", jdbcProperties="
                + jdbcProperties.keySet()
                + "}";
    }

    private static String requireText(String value, String option) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(option + " is required");
        }
        return value;
    }

    private static Duration positive(Duration value, String option) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(option + " must be a positive duration");
        }
        return value;
    }

    /** Builds a {@link MySqlConnectionConfig}; defaults match docs/datastream.md. */
    public static final class Builder {
        private String hostname;
        private int port = 3306;
        private String username;
        private String password;
        private Duration connectTimeout = Duration.ofSeconds(30);
        private int maxRetries = 3;
        private SslMode sslMode = SslMode.PREFERRED;
        private Duration heartbeatInterval = Duration.ofSeconds(30);
        private final Map<String, String> jdbcProperties = new TreeMap<>();

        private Builder() {}

        public Builder hostname(String hostname) {
            this.hostname = hostname;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder username(String username) {
            this.username = username;
            return this;
        }

        public Builder password(String password) {
            this.password = password;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder maxRetries(int maxRetries) {
            this.maxRetries = maxRetries;
            return this;
        }

        public Builder sslMode(SslMode sslMode) {
            this.sslMode = sslMode;
            return this;
        }

        public Builder heartbeatInterval(Duration heartbeatInterval) {
            this.heartbeatInterval = heartbeatInterval;
            return this;
        }

        public Builder jdbcProperty(String key, String value) {
            this.jdbcProperties.put(key, value);
            return this;
        }

        public Builder jdbcProperties(Map<String, String> properties) {
            this.jdbcProperties.putAll(properties);
            return this;
        }

        public MySqlConnectionConfig build() {
            return new MySqlConnectionConfig(this);
        }
    }
}
