package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.stream.event.BinlogEvent;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XaIdTest {

    private static BinlogEvent.XaPrepare prepare(String gtrid, String bqual, int format) {
        byte[] g = gtrid.getBytes();
        byte[] b = bqual.getBytes();
        byte[] data = new byte[g.length + b.length];
        System.arraycopy(g, 0, data, 0, g.length);
        System.arraycopy(b, 0, data, g.length, b.length);
        return new BinlogEvent.XaPrepare(
                new BinlogEvent.Header(0, 0, 0, 0), true, false, format, g.length, b.length, data);
    }

    @Test
    void theBinlogsStatementTextNamesTheSameXidAsThePrepareEvent() {
        // As MySQL 8.0.15 writes them (seen with SHOW BINLOG EVENTS).
        assertThat(XaId.parse("X'7831',X'',1")).isEqualTo(XaId.of(prepare("x1", "", 1)));
        assertThat(XaId.parse("X'7832',X'6271',7")).isEqualTo(XaId.of(prepare("x2", "bq", 7)));
        assertThat(XaId.parse("X'7833',X'',1 ONE PHASE")).isEqualTo(XaId.of(prepare("x3", "", 1)));
        assertThat(XaId.parse("X'7831',X'',1")).isNotEqualTo(XaId.of(prepare("x1", "", 2)));
        assertThat(XaId.parse("X'7831',X'',1")).isNotEqualTo(XaId.of(prepare("x", "1", 1)));
        assertThat(XaId.parse("X'7832',X'6271',7")).isNotEqualTo(XaId.of(prepare("x2", "bx", 7)));
        assertThat(XaId.parse("X'7831',X'',1").hashCode())
                .isEqualTo(XaId.of(prepare("x1", "", 1)).hashCode());
    }

    @Test
    void anythingElseIsRefusedWithoutQuotingIt() {
        for (String bad : new String[] {"'x1'", "X'78',X''", "X'7g',X'',1", "X'78',X'',1x", ""}) {
            assertThatThrownBy(() -> XaId.parse(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageNotContaining("78");
        }
        assertThat(XaId.parse("X'7365637265742d6964',X'',1").toString())
                .doesNotContain("7365")
                .doesNotContain("secret");
    }
}
