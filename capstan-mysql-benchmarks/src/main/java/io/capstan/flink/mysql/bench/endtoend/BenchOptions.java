package io.capstan.flink.mysql.bench.endtoend;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * The command line of {@link EndToEndBenchmark}. Every option has a default; a bad option fails
 * before anything is started, naming the option and what it accepts.
 */
final class BenchOptions {

    static final String USAGE =
            String.join(
                    "\n",
                    "EndToEndBenchmark [options]",
                    "  --size quick|full       quick = 100,000 rows / 50,000 changes (default), full = 1,000,000 / 500,000",
                    "  --rows N                rows in the table before the changes (overrides --size)",
                    "  --changes N             row changes after the load, in transactions of 100 (overrides --size)",
                    "  --repeat N              measurement rounds over the same data; medians are reported (default 3)",
                    "  --warmup N              rounds run first and not counted, so the JIT has compiled every path (default 1)",
                    "  --mysql-url URL         mysql://USER:PASSWORD@HOST:PORT of your own server (USER needs CREATE/DROP,",
                    "                          RELOAD, REPLICATION SLAVE/CLIENT); default: an embedded MySQL 8.0 it starts",
                    "  --database NAME         the database it creates (DROPPED first!) (default capstan_bench)",
                    "  --without-gtids         start the embedded server with gtid_mode OFF: every phase runs on binlog positions",
                    "                          (docs/adr/0012); not with --mysql-url, whose server's own gtid_mode decides",
                    "  --ssl-mode MODE         DISABLED|PREFERRED|REQUIRED for every connection, ours and the limits' (default PREFERRED)",
                    "  --writers N             parallel connections for the load and the changes (default 4)",
                    "  --chunk-size N          rows per snapshot chunk (default 8096, the source's default)",
                    "  --writer-rate N         one-row UPDATE transactions/s of the steady writer during the snapshot (default 100)",
                    "  --latency-rate N        row changes/s of the steady write load in the latency phase (default 1000)",
                    "  --latency-seconds N     length of the steady write load (default 20; quick: 10)",
                    "  --snapshot-max-rows-per-second N  scan.snapshot.max-rows-per-second of the throttled snapshot (parallelism 2;",
                    "                          the limit of the whole job); keep it well below the unthrottled rate (default 20000)",
                    "  --skip PHASES           comma list of phases to leave out: scan,binary-scan,block,snapshot,throttle,plain,streamer,",
                    "                          flink,latency,uuid (throttle: the throttled snapshot, compared with the snapshot's",
                    "                          parallelism 2 line; uuid: the UUID-keyed table, its lines also follow scan, snapshot and flink)",
                    "  --big-transaction-rows N  also stream one transaction of N inserts and report the heap (default 0: off)",
                    "  --json-null             experiment: leave the JSON column NULL (takes JSON conversion out of every path)",
                    "  --doc PATH              markdown file the result table is appended to",
                    "  --no-doc                print the table only",
                    "  --help");

    long rows = 100_000;
    long changes = 50_000;
    int repeat = 3;
    int warmup = 1;
    String sizeName = "quick";
    String mysqlUrl;
    String database = "capstan_bench";
    String sslMode = "PREFERRED";
    int writers = 4;
    int chunkSize = 8096;
    int writerRate = 100;
    long snapshotMaxRowsPerSecond = 20_000;
    int latencyRate = 1000;
    int latencySeconds = -1;
    String skip = "";
    Path doc;
    boolean appendDoc = true;
    boolean jsonNull;
    boolean withoutGtids;
    long bigTransactionRows;

    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
        Long rows = null;
        Long changes = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help":
                case "-h":
                    System.out.println(USAGE);
                    System.exit(0);
                    break;
                case "--size":
                    {
                        String v = value(args, ++i, a).toLowerCase(Locale.ROOT);
                        if (v.equals("quick")) {
                            o.rows = 100_000;
                            o.changes = 50_000;
                        } else if (v.equals("full")) {
                            o.rows = 1_000_000;
                            o.changes = 500_000;
                        } else {
                            throw new IllegalArgumentException(
                                    "--size must be quick or full, was: " + v);
                        }
                        o.sizeName = v;
                        break;
                    }
                case "--rows":
                    rows = positiveLong(args, ++i, a);
                    break;
                case "--changes":
                    changes = positiveLong(args, ++i, a);
                    break;
                case "--repeat":
                    o.repeat = (int) positiveLong(args, ++i, a);
                    break;
                case "--warmup":
                    o.warmup = Integer.parseInt(value(args, ++i, a));
                    if (o.warmup < 0) {
                        throw new IllegalArgumentException("--warmup must be 0 or more");
                    }
                    break;
                case "--mysql-url":
                    o.mysqlUrl = value(args, ++i, a);
                    break;
                case "--database":
                    o.database = value(args, ++i, a);
                    if (!o.database.matches("[A-Za-z0-9_]{1,64}")) {
                        throw new IllegalArgumentException(
                                "--database must be letters, digits and _ only");
                    }
                    break;
                case "--ssl-mode":
                    o.sslMode = value(args, ++i, a).toUpperCase(Locale.ROOT);
                    if (!o.sslMode.matches("DISABLED|PREFERRED|REQUIRED")) {
                        throw new IllegalArgumentException(
                                "--ssl-mode must be DISABLED, PREFERRED or REQUIRED");
                    }
                    break;
                case "--writers":
                    o.writers = (int) positiveLong(args, ++i, a);
                    break;
                case "--chunk-size":
                    o.chunkSize = (int) positiveLong(args, ++i, a);
                    break;
                case "--writer-rate":
                    o.writerRate = (int) positiveLong(args, ++i, a);
                    break;
                case "--snapshot-max-rows-per-second":
                    o.snapshotMaxRowsPerSecond = positiveLong(args, ++i, a);
                    break;
                case "--latency-rate":
                    o.latencyRate = (int) positiveLong(args, ++i, a);
                    break;
                case "--latency-seconds":
                    o.latencySeconds = (int) positiveLong(args, ++i, a);
                    break;
                case "--skip":
                    o.skip = "," + value(args, ++i, a).toLowerCase(Locale.ROOT) + ",";
                    break;
                case "--doc":
                    o.doc = Paths.get(value(args, ++i, a)).toAbsolutePath().normalize();
                    break;
                case "--big-transaction-rows":
                    o.bigTransactionRows = positiveLong(args, ++i, a);
                    break;
                case "--without-gtids":
                    o.withoutGtids = true;
                    break;
                case "--json-null":
                    o.jsonNull = true;
                    break;
                case "--no-doc":
                    o.appendDoc = false;
                    break;
                default:
                    // The option name only: a mistyped --mysql-url=... would carry a password.
                    throw new IllegalArgumentException(
                            "unknown option " + a.replaceAll("=.*", "=...") + "\n" + USAGE);
            }
        }
        if (rows != null) {
            o.rows = rows;
            o.sizeName = "custom";
        }
        if (changes != null) {
            o.changes = changes;
            o.sizeName = "custom";
        }
        if (o.changes % ChangeWorkload.ROWS_PER_TRANSACTION != 0) {
            throw new IllegalArgumentException(
                    "--changes must be a multiple of " + ChangeWorkload.ROWS_PER_TRANSACTION);
        }
        // Updates touch keys 1..rows/2 and deletes take keys from the top: they must never meet.
        if (o.changes > 2 * o.rows) {
            throw new IllegalArgumentException("--changes must be at most twice --rows");
        }
        if (o.rows < 10_000) {
            throw new IllegalArgumentException("--rows must be at least 10000");
        }
        if (o.withoutGtids && o.mysqlUrl != null) {
            throw new IllegalArgumentException(
                    "--without-gtids starts the embedded server without GTIDs; with --mysql-url the"
                            + " server's own gtid_mode decides (the benchmark runs on either)");
        }
        if (o.latencySeconds < 0) {
            o.latencySeconds = o.sizeName.equals("quick") ? 10 : 20;
        }
        if (o.appendDoc && o.doc == null) {
            throw new IllegalArgumentException("--doc PATH is required unless --no-doc is given");
        }
        return o;
    }

    boolean runs(String phase) {
        return !skip.contains("," + phase + ",");
    }

    String sizeLabel() {
        return String.format(
                Locale.ROOT,
                "%s: %,d rows, %,d row changes%s%s",
                sizeName,
                rows,
                changes,
                jsonNull ? ", JSON column NULL" : "",
                withoutGtids ? ", server without GTIDs (binlog positions)" : "");
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static long positiveLong(String[] args, int i, String option) {
        String v = value(args, i, option);
        try {
            long n = Long.parseLong(v.replace("_", "").replace(",", ""));
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a positive integer, was: " + v);
        }
    }
}
