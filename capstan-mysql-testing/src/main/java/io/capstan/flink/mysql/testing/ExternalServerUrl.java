package io.capstan.flink.mysql.testing;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The value of {@code CAPSTAN_TEST_MYSQL_URL}: {@code mysql://USER:PASSWORD@HOST:PORT}, where USER
 * may create databases and users and grant replication privileges (root, typically). Reserved
 * characters in the password are percent-encoded ({@code @} as {@code %40}). The port defaults to
 * 3306. The password never appears in {@link #toString()} or in error messages.
 */
final class ExternalServerUrl {

    static final String ENV = "CAPSTAN_TEST_MYSQL_URL";

    final String host;
    final int port;
    final String user;
    final String password;

    private ExternalServerUrl(String host, int port, String user, String password) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
    }

    static ExternalServerUrl parse(String value) {
        String expected = ENV + " must look like mysql://USER:PASSWORD@HOST:PORT";
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(expected + " (it is not a valid URI)");
        }
        if (!"mysql".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException(expected + " (the scheme must be mysql)");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(expected + " (the host is missing)");
        }
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null || userInfo.isEmpty()) {
            throw new IllegalArgumentException(expected + " (the user is missing)");
        }
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
        String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
        String path = uri.getPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            throw new IllegalArgumentException(
                    expected + " (no database path: the harness creates its own databases)");
        }
        return new ExternalServerUrl(
                uri.getHost(), uri.getPort() < 0 ? 3306 : uri.getPort(), user, password);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "mysql://" + user + ":******@" + host + ":" + port;
    }
}
