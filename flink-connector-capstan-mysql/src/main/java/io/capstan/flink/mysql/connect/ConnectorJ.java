package io.capstan.flink.mysql.connect;

import org.apache.flink.annotation.Internal;

import java.lang.reflect.InvocationTargetException;
import java.sql.Driver;

/**
 * Finds MySQL Connector/J at run time. The SQL jar does not bundle it (its licence is the GPLv2
 * with the Universal FOSS Exception, as for Flink CDC's {@code mysql-cdc}): users put {@code
 * mysql-connector-j} into Flink's {@code lib/} beside it. When it is absent the connector fails
 * with {@link #MISSING}, one line naming the jar, instead of a {@code NoClassDefFoundError} deep in
 * a reader.
 */
@Internal
public final class ConnectorJ {

    /** The driver class, named as a string so that loading this class never needs Connector/J. */
    public static final String DRIVER_CLASS = "com.mysql.cj.jdbc.Driver";

    /** The one-line failure when the driver cannot be loaded. */
    public static final String MISSING =
            "MySQL Connector/J is not on the classpath: put mysql-connector-j-8.x.jar"
                    + " (com.mysql:mysql-connector-j) into Flink's lib/ directory, beside the"
                    + " capstan-mysql jar";

    private ConnectorJ() {}

    /**
     * Fails with {@link #MISSING} unless the class loader that loaded the connector, the one its
     * readers use, can load the driver class; does not initialise it.
     */
    public static void requirePresent() {
        load(ConnectorJ.class.getClassLoader(), false);
    }

    /** A new driver instance, from the class loader that loaded the connector. */
    static Driver newDriver() {
        Class<?> driverClass = load(ConnectorJ.class.getClassLoader(), true);
        try {
            return (Driver) driverClass.getDeclaredConstructor().newInstance();
        } catch (InstantiationException
                | IllegalAccessException
                | InvocationTargetException
                | NoSuchMethodException e) {
            throw new IllegalStateException("cannot create the MySQL JDBC driver", e);
        }
    }

    private static Class<?> load(ClassLoader loader, boolean initialize) {
        try {
            return Class.forName(DRIVER_CLASS, initialize, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException(MISSING, e);
        }
    }
}
