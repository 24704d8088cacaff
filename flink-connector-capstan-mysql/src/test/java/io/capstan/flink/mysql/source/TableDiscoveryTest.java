package io.capstan.flink.mysql.source;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableDiscoveryTest {

    private static final TableSelection SHOP = TableSelection.of(List.of("shop"), List.of());

    @Test
    void aSelectedSystemVersionedTableHaltsNamingItAndTheRemedy() {
        List<TableId> versioned =
                List.of(TableId.of("crm", "people"), TableId.of("shop", "prices"));
        assertThatThrownBy(() -> TableDiscovery.refuseSystemVersioned(versioned, SHOP))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(HaltReason.SYSTEM_VERSIONED_TABLE);
                            assertThat(e.getMessage())
                                    .contains("shop.prices")
                                    .contains("ALTER TABLE `shop`.`prices` DROP SYSTEM VERSIONING")
                                    .doesNotContain("crm.people");
                        });
    }

    @Test
    void versionedTablesOutsideTheSelectionPass() {
        assertThatCode(
                        () ->
                                TableDiscovery.refuseSystemVersioned(
                                        List.of(TableId.of("crm", "people")), SHOP))
                .doesNotThrowAnyException();
    }

    @Test
    void selectKeepsTheMatchingBaseTablesAndHaltsWhenNoneMatches() {
        List<TableId> onServer = List.of(TableId.of("crm", "people"), TableId.of("shop", "orders"));
        assertThat(TableDiscovery.select(onServer, SHOP, "db:3306"))
                .containsExactly(TableId.of("shop", "orders"));
        assertThatThrownBy(
                        () ->
                                TableDiscovery.select(
                                        List.of(TableId.of("crm", "people")), SHOP, "db:3306"))
                .isInstanceOfSatisfying(
                        CapstanHaltException.class,
                        e -> assertThat(e.reason()).isEqualTo(HaltReason.NO_TABLES_MATCHED));
    }
}
