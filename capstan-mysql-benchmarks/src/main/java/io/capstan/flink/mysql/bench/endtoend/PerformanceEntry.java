package io.capstan.flink.mysql.bench.endtoend;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The run's entry for docs/benchmark-record.md: a dated heading, the machine, load, server and data
 * that the figures were measured on, then the result table.
 */
final class PerformanceEntry {

    private PerformanceEntry() {}

    static String markdown(
            BenchOptions o,
            BenchServer server,
            String mysqlVersion,
            String loadBefore,
            String loadAfter,
            long loadNanos,
            ChangeWorkload.Totals totals,
            ResultTable results) {
        StringBuilder e = new StringBuilder();
        e.append("### ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")))
                .append(" — ")
                .append(o.sizeLabel())
                .append(", ")
                .append(o.repeat)
                .append(o.repeat == 1 ? " round" : " rounds")
                .append("\n\n");
        e.append("Machine: ")
                .append(MachineInfo.describe(mysqlVersion))
                .append(". Load average ")
                .append(loadBefore)
                .append(" before, ")
                .append(loadAfter)
                .append(
                        " after (the machine is shared:"
                                + " other builds ran at the same time, so absolute rates are noisy; ratios within one round"
                                + " are what count). Server: ")
                .append(server.isEmbedded() ? "embedded" : "external")
                .append(", gtid_mode ")
                .append(server.query("SELECT @@global.gtid_mode"))
                .append(", TLS mode ")
                .append(o.sslMode)
                .append(o.jsonNull ? ". **Experiment: the JSON column is NULL in every row**" : "")
                .append(". Data: ")
                .append(
                        String.format(
                                Locale.ROOT,
                                "%,d rows loaded in %.1f s; %,d row changes (%,d inserts, %,d"
                                        + " updates, %,d deletes) in transactions of %d.",
                                o.rows,
                                loadNanos / 1e9,
                                totals.rowChanges(),
                                totals.inserts,
                                totals.updates,
                                totals.deletes,
                                ChangeWorkload.ROWS_PER_TRANSACTION))
                .append("\n\n");
        e.append(results.markdown());
        return e.toString();
    }

    /** Appends the entry to the end of the performance page, after a blank line. */
    static void appendTo(Path doc, String entry) throws IOException {
        Files.writeString(
                doc,
                "\n" + entry,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
