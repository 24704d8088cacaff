package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TableSelectionTest {

    @Test
    void exactNamesMatchOnlyThemselves() {
        TableSelection s = TableSelection.of(List.of(), List.of("shop.orders"));
        assertThat(s.matches(TableId.of("shop", "orders"))).isTrue();
        assertThat(s.matches(TableId.of("shop", "orders2"))).isFalse();
        assertThat(s.matches(TableId.of("shopx", "orders"))).isFalse();
    }

    @Test
    void regularExpressionsMatchWholeNames() {
        TableSelection s = TableSelection.of(List.of(), List.of("shop_\\d+.order_line_.*"));
        assertThat(s.matches(TableId.of("shop_1", "order_line_2024"))).isTrue();
        assertThat(s.matches(TableId.of("shop_1x", "order_line_2024"))).isFalse();
        assertThat(s.matches(TableId.of("shop_1", "xorder_line_"))).isFalse();
    }

    @Test
    void anEscapedDotIsPartOfTheName() {
        TableSelection s = TableSelection.of(List.of(), List.of("my\\.db.t"));
        assertThat(s.matches(TableId.of("my.db", "t"))).isTrue();
        assertThat(s.matches(TableId.of("myxdb", "t"))).isFalse();
    }

    @Test
    void bothListsMustMatchAndSystemSchemasNever() {
        TableSelection s = TableSelection.of(List.of("shop", "mysql"), List.of(".*\\.orders"));
        assertThat(s.matches(TableId.of("shop", "orders"))).isTrue();
        assertThat(s.matches(TableId.of("crm", "orders"))).isFalse();
        assertThat(s.matches(TableId.of("mysql", "orders"))).isFalse();
        TableSelection all = TableSelection.of(List.of(".*"), List.of());
        assertThat(all.matches(TableId.of("sys", "x"))).isFalse();
        assertThat(all.matches(TableId.of("performance_schema", "x"))).isFalse();
        assertThat(all.matches(TableId.of("anything", "x"))).isTrue();
    }
}
