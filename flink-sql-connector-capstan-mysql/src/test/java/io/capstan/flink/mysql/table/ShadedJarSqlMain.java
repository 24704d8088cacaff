package io.capstan.flink.mysql.table;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Run by {@link ShadedJarIT} in a JVM whose classpath holds Flink's jars and, in mode {@code lib},
 * the shaded SQL jar (as in a distribution's {@code lib/}); in mode {@code add-jar} the jar is
 * added with {@code ADD JAR} (as {@code sql-client.sh --jar} does). Uses only Flink's API.
 *
 * <p>Arguments: mode, jar path, CREATE TABLE statement, query, number of rows to print.
 */
public final class ShadedJarSqlMain {

    private ShadedJarSqlMain() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String jar = args[1];
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        if (mode.equals("add-jar")) {
            tEnv.executeSql("ADD JAR '" + jar + "'");
        }
        tEnv.executeSql(args[2]);
        int rows = Integer.parseInt(args[4]);
        try (CloseableIterator<Row> it = tEnv.executeSql(args[3]).collect()) {
            for (int i = 0; i < rows; i++) {
                System.out.println("ROW " + it.next());
            }
        }
        System.out.println("DONE");
        System.exit(0);
    }
}
