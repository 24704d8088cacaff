package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A fresh database per test class on the shared (or a given) server, dropped after the class.
 *
 * <pre>{@code @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();}
 * </pre>
 *
 * <p>The name is unique per instance ({@code <test class>_<random>}), so test classes and JVMs
 * sharing one server never see each other's tables.
 */
public final class MySqlTestDatabase implements BeforeAllCallback, AfterAllCallback {

    private final Supplier<MySqlServer> serverSupplier;
    private final boolean ownsServer;
    private final String name;
    private MySqlServer server;

    /** A database on {@link MySqlServer#shared()}. */
    public MySqlTestDatabase() {
        this(MySqlServer::shared, false, callerName());
    }

    /** A database on the server the supplier returns when the test class starts. */
    public MySqlTestDatabase(Supplier<MySqlServer> server) {
        this(server, false, callerName());
    }

    /**
     * A database on a server of its own, which {@code start} starts when the test class starts; the
     * server is closed after the database is dropped.
     */
    public static MySqlTestDatabase onServerOfItsOwn(Supplier<MySqlServer> start) {
        return new MySqlTestDatabase(start, true, callerName());
    }

    private MySqlTestDatabase(Supplier<MySqlServer> server, boolean ownsServer, String prefix) {
        this.serverSupplier = server;
        this.ownsServer = ownsServer;
        this.name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = serverSupplier.get();
        server.executeAsRoot("CREATE DATABASE `" + name + "`");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            try {
                server.executeAsRoot("DROP DATABASE IF EXISTS `" + name + "`");
            } finally {
                if (ownsServer) {
                    server.close();
                }
            }
        }
    }

    public String name() {
        return name;
    }

    public MySqlServer server() {
        if (server == null) {
            server = serverSupplier.get();
        }
        return server;
    }

    /** Runs statements as root with this database as the default schema. */
    public void execute(String... sql) {
        try (Connection c = openRootConnection();
                Statement st = c.createStatement()) {
            for (int i = 0; i < sql.length; i++) {
                try {
                    st.execute(sql[i]);
                } catch (SQLException e) {
                    throw new IllegalStateException(
                            "statement "
                                    + (i + 1)
                                    + " of "
                                    + sql.length
                                    + " failed in database "
                                    + name,
                            e);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect as root to " + server(), e);
        }
    }

    /** A root connection with this database as the default schema. */
    public Connection openRootConnection() throws SQLException {
        Connection c = server().openRootConnection();
        try {
            c.setCatalog(name);
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /** The least-privileged connector user on this database's server. */
    public MySqlAccount connectorAccount() {
        return server().connectorAccount();
    }

    /** The simple name of the test class that creates this extension, as a database name prefix. */
    private static String callerName() {
        Class<?> caller =
                StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                        .walk(
                                frames ->
                                        frames.map(StackWalker.StackFrame::getDeclaringClass)
                                                .filter(c -> c != MySqlTestDatabase.class)
                                                .findFirst()
                                                .orElse(MySqlTestDatabase.class));
        String simple =
                caller.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (simple.isEmpty()) {
            simple = "test";
        }
        return simple.length() > 40 ? simple.substring(0, 40) : simple;
    }

    @Override
    public String toString() {
        return "MySqlTestDatabase{" + name + "}";
    }
}
