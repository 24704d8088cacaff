package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag(FlinkLines.NEUTRAL)
class ServerOptionsTest {

    @Test
    void laterFlagReplacesTheDefaultForTheSameOption() {
        List<String> merged =
                ServerOptions.merge(
                        ServerOptions.REPLICATION_DEFAULTS,
                        ServerOptions.defaults()
                                .withFlag("--binlog-format=STATEMENT")
                                .extraFlags());
        assertThat(merged)
                .contains("--binlog-format=STATEMENT")
                .doesNotContain("--binlog-format=ROW");
        assertThat(merged.stream().filter(f -> f.startsWith("--binlog-format"))).hasSize(1);
    }

    @Test
    void disableLogBinRemovesLogBinInsteadOfContradictingIt() {
        List<String> merged =
                ServerOptions.merge(
                        ServerOptions.REPLICATION_DEFAULTS,
                        ServerOptions.defaults().withFlag("--disable-log-bin").extraFlags());
        assertThat(merged).contains("--disable-log-bin").noneMatch(f -> f.startsWith("--log-bin"));

        List<String> reEnabled = ServerOptions.merge(merged, List.of("--log-bin=other"));
        assertThat(reEnabled).contains("--log-bin=other").doesNotContain("--disable-log-bin");
    }

    @Test
    void optionNamesIgnorePrefixesUnderscoresAndCase() {
        assertThat(ServerOptions.optionName("--skip_log_bin")).isEqualTo("log-bin");
        assertThat(ServerOptions.optionName("--log-bin=binlog")).isEqualTo("log-bin");
        assertThat(ServerOptions.optionName("--enable-performance-schema"))
                .isEqualTo("performance-schema");
        assertThat(ServerOptions.optionName("--loose-GTID_MODE=OFF")).isEqualTo("gtid-mode");
    }

    @Test
    void oneStringMayCarrySeveralFlags() {
        ServerOptions o =
                ServerOptions.defaults()
                        .withFlag("--gtid-mode=OFF  --enforce-gtid-consistency=OFF");
        assertThat(o.extraFlags())
                .containsExactly("--gtid-mode=OFF", "--enforce-gtid-consistency=OFF");
        assertThat(ServerOptions.defaults().extraFlags()).isEmpty(); // immutable
    }

    @Test
    void rejectsSomethingThatIsNotAFlag() {
        assertThatThrownBy(() -> ServerOptions.defaults().withFlag("binlog-format=ROW"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("starts with '--'");
    }
}
