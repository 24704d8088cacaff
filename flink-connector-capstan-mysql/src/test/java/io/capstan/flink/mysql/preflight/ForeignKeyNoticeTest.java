package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.schema.ForeignKey;
import io.capstan.flink.mysql.schema.ForeignKey.Rule;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ForeignKeyNoticeTest {

    private static final TableId P = TableId.of("shop", "customers");
    private static final TableId C = TableId.of("shop", "orders");
    private static final TableId U = TableId.of("shop", "notes");

    private static ForeignKey fk(TableId child, String name, Rule del, Rule upd) {
        return new ForeignKey(child, name, P, List.of("c_id"), List.of("id"), List.of(0), del, upd);
    }

    @Test
    void namesEachCapturedChildOfAPropagatingConstraint() {
        List<String> lines =
                ForeignKeyNotice.lines(
                        List.of(
                                fk(C, "orders_customer", Rule.CASCADE, Rule.SET_NULL),
                                fk(C, "orders_checked", Rule.RESTRICT, Rule.NO_ACTION),
                                fk(U, "notes_customer", Rule.CASCADE, Rule.CASCADE)),
                        List.of(C));
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0))
                .contains(
                        C.toString(),
                        "`orders_customer`",
                        "ON DELETE CASCADE, ON UPDATE SET NULL",
                        P.toString(),
                        "foreign_key_cascade");
    }
}
