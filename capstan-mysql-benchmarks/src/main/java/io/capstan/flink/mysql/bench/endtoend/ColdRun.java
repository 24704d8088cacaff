package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.bench.coldrun.ColdRunArgs;
import io.capstan.flink.mysql.bench.coldrun.ColdRunClock;
import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.connect.SslMode;

import java.time.Duration;

/**
 * One measured program of the cold-start benchmark ({@link ColdStartBenchmark}), run in a fresh JVM
 * as a user's program runs: time zero is the first line of {@code main}; it reads the data {@code
 * --runs} times in this JVM (the first run cold, the others warm) and prints one {@link
 * io.capstan.flink.mysql.bench.coldrun.ColdRunLine} per run.
 *
 * <p>Variants: {@code floor} (Flink's own floor: a trivial bounded source into the same counting
 * sink), {@code scan} and {@code binlog-client} (the raw limits: a streaming JDBC scan, a plain
 * {@code BinaryLogClient}), {@code snapshot}, {@code snapshot-p2} and {@code binlog} (the
 * capstan-mysql source with {@code RowDataDeserializer} into the counting sink; the {@code
 * -object-reuse} variants with Flink's {@code pipeline.object-reuse}, which leaves out Flink's copy
 * of each record between chained operators). The password comes from the environment ({@value
 * #PASSWORD_VARIABLE}), never from the command line.
 */
public final class ColdRun {

    static final String PASSWORD_VARIABLE = "CAPSTAN_BENCH_PASSWORD";
    static final String FAILED = "COLD-RUN-FAILED ";

    private ColdRun() {}

    public static void main(String[] args) {
        ColdRunClock.mainStarted();
        int status = 0;
        try {
            run(parse(args));
        } catch (Exception | Error e) {
            // the chain of exception classes only: a driver's or Flink's message may carry a
            // statement or an option's value (the no-values rule)
            StringBuilder chain = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                chain.append(chain.length() == 0 ? "" : " <- ").append(t.getClass().getName());
            }
            System.out.println(FAILED + chain);
            status = 1;
        }
        System.out.flush();
        System.exit(status); // Flink's and the drivers' non-daemon threads must not keep the JVM
    }

    private static void run(ColdRunArgs<String> a) throws Exception {
        String variant = a.variant();
        long expected = a.expect();
        int runs = a.runs();
        int serverId = a.serverId();
        MySqlConnectionConfig mysql = connection(a);
        BenchTable table = new BenchTable(a.database(), a.table(), false);
        StartupOptions binlogStart =
                a.gtidBefore() != null
                        ? StartupOptions.gtidSet(a.gtidBefore())
                        : a.binlogFile() != null
                                ? StartupOptions.specificOffset(a.binlogFile(), a.binlogPos())
                                : null;
        for (int r = 1; r <= runs; r++) {
            ColdRunClock.startRun(expected);
            switch (variant) {
                case "floor" -> ColdRunJobs.floor(expected);
                case "scan" -> ColdRunRawReaders.scan(mysql, table);
                case "binlog-client" -> ColdRunRawReaders.binlogClient(mysql, a, serverId + r);
                case "snapshot" -> ColdRunJobs.snapshot(mysql, table, 1, false);
                case "snapshot-p2" -> ColdRunJobs.snapshot(mysql, table, 2, false);
                case "snapshot-object-reuse" -> ColdRunJobs.snapshot(mysql, table, 1, true);
                case "binlog" -> ColdRunJobs.binlog(mysql, table, binlogStart, serverId + r, false);
                case "binlog-object-reuse" ->
                        ColdRunJobs.binlog(mysql, table, binlogStart, serverId + r, true);
                default -> throw new IllegalArgumentException("unknown variant " + variant);
            }
            System.out.println(ColdRunClock.finishRun(r).format());
            System.out.flush();
        }
    }

    private static MySqlConnectionConfig connection(ColdRunArgs<String> a) {
        String password = System.getenv(PASSWORD_VARIABLE);
        return MySqlConnectionConfig.builder()
                .hostname(a.host())
                .port(a.port())
                .username(a.user())
                .password(password == null ? "" : password)
                .sslMode(SslMode.valueOf(a.sslMode().name()))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** The arguments, with the variants of this program. */
    static ColdRunArgs<String> parse(String[] args) {
        return ColdRunArgs.parse(
                args,
                id -> {
                    if (!ColdStartOptions.PROGRAMS.contains(id)) {
                        throw new IllegalArgumentException(
                                "--variant must be one of "
                                        + String.join(", ", ColdStartOptions.PROGRAMS));
                    }
                    return id;
                },
                id -> id.startsWith("binlog"));
    }
}
