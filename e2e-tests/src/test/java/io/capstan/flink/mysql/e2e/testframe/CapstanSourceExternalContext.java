package io.capstan.flink.mysql.e2e.testframe;

import io.capstan.flink.mysql.CapstanMySqlSource;
import io.capstan.flink.mysql.StartupOptions;
import io.capstan.flink.mysql.testing.MySqlAccount;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.testframe.external.ExternalSystemSplitDataWriter;
import org.apache.flink.connector.testframe.external.source.DataStreamSourceExternalContext;
import org.apache.flink.connector.testframe.external.source.TestingSourceSettings;

import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The framework's view of capstan-mysql for one test case: a split is a new table (named {@code
 * <prefix>_split_<n>}) in the suite's database, a record is a row's {@code line}, and the source
 * captures exactly this case's tables as the least-privileged connector user.
 *
 * <p>Bounded settings read with the {@code snapshot} start mode (read the tables, then finish).
 * Unbounded settings read with the {@link UnboundedStart} of the factory.
 */
final class CapstanSourceExternalContext implements DataStreamSourceExternalContext<String> {

    private static final String ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 äöüß€漢字😀";

    private final MySqlExternalSystem system;
    private final UnboundedStart unboundedStart;
    private final String tablePrefix;

    /** Everything committed before this case wrote anything: where an unbounded source starts. */
    private final String gtidsBeforeWrites;

    private final List<SplitTable> splits = new ArrayList<>();

    CapstanSourceExternalContext(MySqlExternalSystem system, UnboundedStart unboundedStart) {
        this.system = system;
        this.unboundedStart = unboundedStart;
        this.tablePrefix = system.newTablePrefix();
        this.gtidsBeforeWrites = system.gtidExecuted();
    }

    UnboundedStart unboundedStart() {
        return unboundedStart;
    }

    @Override
    public Source<String, ?, ?> createSource(TestingSourceSettings settings) {
        StartupOptions start;
        switch (settings.getBoundedness()) {
            case BOUNDED:
                if (!unboundedStart.runsBoundedCases()) {
                    throw new UnsupportedOperationException(
                            "bounded cases run in the "
                                    + UnboundedStart.BINLOG_FROM_CASE_START
                                    + " context only (same source)");
                }
                start = StartupOptions.snapshot();
                break;
            case CONTINUOUS_UNBOUNDED:
                start = unboundedStart.startupOptions(gtidsBeforeWrites);
                break;
            default:
                throw new UnsupportedOperationException("boundedness " + settings.getBoundedness());
        }
        MySqlAccount account = system.connectorAccount();
        return CapstanMySqlSource.<String>builder()
                .hostname(account.hostname())
                .port(account.port())
                .username(account.username())
                .password(account.password())
                .databaseList(Pattern.quote(system.database()))
                // tables are created after this call (per split): the list is resolved when the
                // job starts, so a pattern names them all
                .tableList(Pattern.quote(system.database()) + "\\." + tablePrefix + "_split_[0-9]+")
                .serverId(ThreadLocalRandom.current().nextLong(300_000, 400_000))
                .startupOptions(start)
                .deserializer(new SplitLineDeserializer())
                .build();
    }

    @Override
    public ExternalSystemSplitDataWriter<String> createSourceSplitDataWriter(
            TestingSourceSettings settings) {
        SplitTable split = SplitTable.create(system, tablePrefix + "_split_" + splits.size());
        splits.add(split);
        return split;
    }

    /**
     * Records unique across splits (they name the split index) and across calls for one split (they
     * name the seed), with multi-byte text, including 4-byte UTF-8.
     */
    @Override
    public List<String> generateTestData(
            TestingSourceSettings settings, int splitIndex, long seed) {
        Random random = new Random(seed);
        int count = 50 + random.nextInt(100);
        List<String> records = new ArrayList<>(count);
        int[] alphabet = ALPHABET.codePoints().toArray();
        for (int i = 0; i < count; i++) {
            StringBuilder line =
                    new StringBuilder()
                            .append("split")
                            .append(splitIndex)
                            .append('-')
                            .append(Long.toHexString(seed))
                            .append('-')
                            .append(i)
                            .append(':');
            int length = random.nextInt(40);
            for (int c = 0; c < length; c++) {
                line.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
            }
            records.add(line.toString());
        }
        return records;
    }

    /** The MiniCluster runs in this JVM: the connector is on its classpath already. */
    @Override
    public List<URL> getConnectorJarPaths() {
        return Collections.emptyList();
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public void close() throws Exception {
        for (SplitTable split : splits) {
            split.close();
        }
        splits.clear();
    }

    @Override
    public String toString() {
        return "capstan-mysql, unbounded: " + unboundedStart;
    }
}
