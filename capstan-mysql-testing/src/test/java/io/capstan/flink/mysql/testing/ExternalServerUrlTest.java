package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag(FlinkLines.NEUTRAL)
class ExternalServerUrlTest {

    @Test
    void parsesUserPasswordHostAndPort() {
        ExternalServerUrl u = ExternalServerUrl.parse("mysql://root:secret@127.0.0.1:3307");
        assertThat(u.user).isEqualTo("root");
        assertThat(u.password).isEqualTo("secret");
        assertThat(u.host).isEqualTo("127.0.0.1");
        assertThat(u.port).isEqualTo(3307);
    }

    @Test
    void portDefaultsTo3306AndPasswordIsPercentDecoded() {
        ExternalServerUrl u = ExternalServerUrl.parse("mysql://admin:p%40ss%3Aw+rd@db.example");
        assertThat(u.port).isEqualTo(3306);
        assertThat(u.password).isEqualTo("p@ss:w+rd");
    }

    @Test
    void toStringHidesThePassword() {
        assertThat(ExternalServerUrl.parse("mysql://root:secret@localhost:3306").toString())
                .isEqualTo("mysql://root:******@localhost:3306")
                .doesNotContain("secret");
    }

    @Test
    void badValuesExplainTheFormatWithoutEchoingTheValue() {
        assertThatThrownBy(() -> ExternalServerUrl.parse("jdbc:mysql://root:secret@localhost:3306"))
                .hasMessageContaining("mysql://USER:PASSWORD@HOST:PORT")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> ExternalServerUrl.parse("mysql://localhost:3306"))
                .hasMessageContaining("user is missing");
        assertThatThrownBy(() -> ExternalServerUrl.parse("mysql://root:secret@localhost:3306/app"))
                .hasMessageContaining("no database path")
                .hasMessageNotContaining("secret");
    }
}
