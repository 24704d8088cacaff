package io.capstan.flink.mysql.bench.flink120;

import io.capstan.flink.mysql.bench.coldrun.ColdRunArgs;
import io.capstan.flink.mysql.bench.coldrun.ColdRunArgs.SslMode;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Flink SQL table a cold-run program reads, as a user of each connector declares the
 * benchmark's {@code orders} table (BenchTable in ../../capstan-mysql-benchmarks): the same columns
 * and key for every variant; the WITH options differ only where the connectors' options do (TLS,
 * startup mode names are shared). The statement holds the password, so it is never printed.
 */
final class ColdRunTableDdl {

    /** The Flink table's name inside the program's catalog. */
    static final String TABLE = "orders_source";

    /**
     * The MySQL columns in Flink's types: TIMESTAMP as TIMESTAMP_LTZ (the instant, no time-zone
     * option needed by either connector), VARCHAR and JSON as STRING.
     */
    static final String COLUMNS =
            "  id BIGINT NOT NULL,\n"
                    + "  qty INT NOT NULL,\n"
                    + "  customer STRING NOT NULL,\n"
                    + "  amount DECIMAL(12, 2) NOT NULL,\n"
                    + "  created_at TIMESTAMP(3) NOT NULL,\n"
                    + "  updated_at TIMESTAMP_LTZ(3) NOT NULL,\n"
                    + "  status TINYINT NOT NULL,\n"
                    + "  score DOUBLE NOT NULL,\n"
                    + "  note STRING,\n"
                    + "  attrs STRING,\n"
                    + "  PRIMARY KEY (id) NOT ENFORCED\n";

    /** The first replica server id; the connectors take one id per binlog reader from here. */
    static final int FIRST_SERVER_ID = 5400;

    private ColdRunTableDdl() {}

    static String createTable(ColdRunArgs<ColdRunVariant> args, String password) {
        return "CREATE TABLE "
                + TABLE
                + " (\n"
                + COLUMNS
                + ") WITH (\n"
                + options(args, password).entrySet().stream()
                        .map(
                                e ->
                                        "  '"
                                                + e.getKey()
                                                + "' = '"
                                                + e.getValue().replace("'", "''")
                                                + "'")
                        .collect(Collectors.joining(",\n"))
                + "\n)";
    }

    /** The WITH options of the variant, in the order a user would write them. */
    static Map<String, String> options(ColdRunArgs<ColdRunVariant> args, String password) {
        Map<String, String> o = new LinkedHashMap<>();
        ColdRunVariant v = args.variant();
        o.put("connector", v.connector());
        if (v == ColdRunVariant.FLOOR_SQL) {
            floorOptions(args, o);
            return o;
        }
        o.put("hostname", args.host());
        o.put("port", Integer.toString(args.port()));
        o.put("username", args.user());
        o.put("password", password);
        o.put("database-name", args.database());
        o.put("table-name", args.table());
        // One id per reader (mysql-cdc's readers each open a binlog connection for their
        // chunks' backfill; capstan's single binlog reader takes the first), fixed so that runs
        // do not depend on a random pick.
        o.put("server-id", FIRST_SERVER_ID + "-" + (FIRST_SERVER_ID + args.parallelism() - 1));
        if (v.readsBinlog()) {
            o.put("scan.startup.mode", "specific-offset");
            if (args.gtidBefore() != null) {
                o.put("scan.startup.specific-offset.gtid-set", args.gtidBefore());
            } else { // a server without GTIDs
                o.put("scan.startup.specific-offset.file", args.binlogFile());
                o.put("scan.startup.specific-offset.pos", Long.toString(args.binlogPos()));
            }
        } else {
            o.put("scan.startup.mode", "snapshot");
        }
        tls(v, args.sslMode(), o);
        return o;
    }

    /**
     * The one place the two connectors' options differ besides 'connector'. mysql-cdc opens three
     * kinds of connections: its chunk readers' JDBC pool takes only {@code jdbc.properties.*}
     * (without them the driver's default, TLS if offered); Debezium's JDBC connection and the
     * binlog client take {@code debezium.database.ssl.mode}. capstan has one option for its JDBC
     * and binlog connections, {@code ssl.mode}, and refuses {@code jdbc.properties.sslMode} (it
     * would duplicate the option).
     */
    private static void tls(ColdRunVariant v, SslMode mode, Map<String, String> o) {
        boolean required = mode == SslMode.REQUIRED;
        if (v.connector().equals("mysql-cdc")) {
            o.put("jdbc.properties.sslMode", required ? "REQUIRED" : "DISABLED");
            if (!required) {
                // caching_sha2_password (MySQL 8's default) over plain TCP: the driver refuses to
                // fetch the server's RSA key unless asked (capstan asks by itself; the binlog
                // client fetches it unasked)
                o.put("jdbc.properties.allowPublicKeyRetrieval", "true");
            }
            o.put("debezium.database.ssl.mode", required ? "required" : "disabled");
        } else {
            o.put("ssl.mode", required ? "required" : "disabled");
        }
    }

    /**
     * A bounded datagen of {@code --expect} rows of the same columns: random values (a sequence key
     * would first fill a queue with every key), short strings so that generating them costs next to
     * nothing, and no rate limit (datagen's default is 10,000 rows/s).
     */
    private static void floorOptions(ColdRunArgs<ColdRunVariant> args, Map<String, String> o) {
        o.put("number-of-rows", Long.toString(args.expect()));
        o.put("rows-per-second", Integer.toString(Integer.MAX_VALUE));
        o.put("fields.customer.length", "8");
        o.put("fields.note.length", "8");
        o.put("fields.attrs.length", "8");
    }
}
