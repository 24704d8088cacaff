package io.capstan.flink.mysql.connect;

import io.capstan.flink.mysql.OptionRules;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import static io.capstan.flink.mysql.CapstanMySqlOptions.CONNECT_MAX_RETRIES;
import static io.capstan.flink.mysql.CapstanMySqlOptions.CONNECT_TIMEOUT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.HEARTBEAT_INTERVAL;
import static io.capstan.flink.mysql.CapstanMySqlOptions.PORT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SSL_MODE;

/**
 * How to reach one MySQL server: address, credentials and connection behaviour, shared by the JDBC
 * and the binlog connection. Immutable and serializable; {@link #toString()} never shows the
 * password (Rule 1).
 */
@Internal
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
        this.hostname = OptionRules.hostname(b.hostname);
        this.port = OptionRules.port(b.port);
        this.username = OptionRules.username(b.username);
        this.password = b.password == null ? "" : b.password;
        this.connectTimeout = OptionRules.positive(CONNECT_TIMEOUT, b.connectTimeout);
        this.maxRetries = OptionRules.connectMaxRetries(b.maxRetries);
        this.sslMode = Objects.requireNonNull(b.sslMode, "sslMode");
        this.heartbeatInterval = OptionRules.positive(HEARTBEAT_INTERVAL, b.heartbeatInterval);
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

    /** Builds a {@link MySqlConnectionConfig}; defaults are the options' (CapstanMySqlOptions). */
    public static final class Builder {
        private String hostname;
        private int port = PORT.defaultValue();
        private String username;
        private String password;
        private Duration connectTimeout = CONNECT_TIMEOUT.defaultValue();
        private int maxRetries = CONNECT_MAX_RETRIES.defaultValue();
        private SslMode sslMode = OptionRules.sslMode(SSL_MODE.defaultValue());
        private Duration heartbeatInterval = HEARTBEAT_INTERVAL.defaultValue();
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
