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
import static io.capstan.flink.mysql.CapstanMySqlOptions.CONNECT_SOCKET_TIMEOUT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.CONNECT_TIMEOUT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.HEARTBEAT_INTERVAL;
import static io.capstan.flink.mysql.CapstanMySqlOptions.PORT;
import static io.capstan.flink.mysql.CapstanMySqlOptions.SSL_MODE;

/**
 * How to reach one MySQL server: address, credentials and connection behaviour, shared by the JDBC
 * and the binlog connection. Immutable and serializable; {@link #toString()} never shows the
 * password (the no-values rule).
 *
 * @param socketTimeout longest silence on a JDBC socket while a reply is awaited (a dead network
 *     fails instead of hanging until the OS gives up)
 * @param maxRetries attempts after the first before a connection failure is final
 * @param jdbcProperties extra JDBC driver properties passed through unchanged
 */
@Internal
public record MySqlConnectionConfig(
        String hostname,
        int port,
        String username,
        String password,
        Duration connectTimeout,
        Duration socketTimeout,
        int maxRetries,
        SslMode sslMode,
        Duration heartbeatInterval,
        Map<String, String> jdbcProperties)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Checks every setting as the options define it; a null password is the empty one. */
    public MySqlConnectionConfig {
        hostname = OptionRules.hostname(hostname);
        port = OptionRules.port(port);
        username = OptionRules.username(username);
        password = password == null ? "" : password;
        connectTimeout = OptionRules.positive(CONNECT_TIMEOUT, connectTimeout);
        socketTimeout = OptionRules.positive(CONNECT_SOCKET_TIMEOUT, socketTimeout);
        maxRetries = OptionRules.connectMaxRetries(maxRetries);
        Objects.requireNonNull(sslMode, "sslMode");
        heartbeatInterval = OptionRules.positive(HEARTBEAT_INTERVAL, heartbeatInterval);
        jdbcProperties = Collections.unmodifiableMap(new TreeMap<>(jdbcProperties));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The password; hand it only to a driver, never to a message. */
    @Override
    public String password() {
        return password;
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
        b.socketTimeout = socketTimeout;
        b.maxRetries = maxRetries;
        b.sslMode = sslMode;
        b.heartbeatInterval = heartbeatInterval;
        b.jdbcProperties.putAll(jdbcProperties);
        return b;
    }

    /** Never the password, nor the JDBC properties' values (the no-values rule). */
    @Override
    public String toString() {
        return "MySqlConnectionConfig{address="
                + address()
                + ", username="
                + username
                + ", password=******, connectTimeout="
                + connectTimeout
                + ", socketTimeout="
                + socketTimeout
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
        private Duration socketTimeout = CONNECT_SOCKET_TIMEOUT.defaultValue();
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

        public Builder socketTimeout(Duration socketTimeout) {
            this.socketTimeout = socketTimeout;
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
            return new MySqlConnectionConfig(
                    hostname,
                    port,
                    username,
                    password,
                    connectTimeout,
                    socketTimeout,
                    maxRetries,
                    sslMode,
                    heartbeatInterval,
                    jdbcProperties);
        }
    }
}
