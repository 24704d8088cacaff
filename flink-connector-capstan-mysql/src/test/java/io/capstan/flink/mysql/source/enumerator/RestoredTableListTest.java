package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RestoredTableListTest {

    private static final TableId ORDERS = TableId.of("shop", "orders");
    private static final TableId LINES = TableId.of("shop", "order_line");
    private static final TableId NEW = TableId.of("shop", "orders_2027");

    @Test
    void theSameTablesPassInAnyOrder() {
        assertThatCode(
                        () ->
                                RestoredTableList.check(
                                        List.of(ORDERS, LINES),
                                        List.of(LINES, ORDERS),
                                        List.of(LINES, NEW, ORDERS)))
                .doesNotThrowAnyException();
    }

    @Test
    void aTableNewlySelectedHaltsNamingIt() {
        assertThatThrownBy(
                        () ->
                                RestoredTableList.check(
                                        List.of(ORDERS),
                                        List.of(ORDERS, NEW),
                                        List.of(ORDERS, NEW)))
                .isInstanceOf(CapstanHaltException.class)
                .satisfies(
                        e ->
                                org.assertj.core.api.Assertions.assertThat(
                                                ((CapstanHaltException) e).reason())
                                        .isEqualTo(HaltReason.TABLE_LIST_CHANGED))
                .hasMessageContaining("added shop.orders_2027")
                .hasMessageNotContaining("removed shop")
                .hasMessageContaining("cannot change its tables")
                .hasMessageContaining("restore with the table list the job was started with")
                .hasMessageContaining("without state");
    }

    @Test
    void aTableLeftOutOfTheListHaltsButADroppedTableDoesNot() {
        assertThatThrownBy(
                        () ->
                                RestoredTableList.check(
                                        List.of(ORDERS, LINES),
                                        List.of(ORDERS),
                                        List.of(ORDERS, LINES)))
                .hasMessageContaining("removed shop.order_line")
                .hasMessageNotContaining("added shop");
        // order_line was dropped on the server: not a change of the list
        assertThatCode(
                        () ->
                                RestoredTableList.check(
                                        List.of(ORDERS, LINES), List.of(ORDERS), List.of(ORDERS)))
                .doesNotThrowAnyException();
    }

    @Test
    void aRestoredSplitDropsTablesLeftOutButNotTablesDroppedOnTheServer() {
        assertThat(
                        RestoredTableList.splitChange(
                                List.of(ORDERS, LINES, NEW),
                                List.of(ORDERS),
                                List.of(ORDERS, LINES),
                                false))
                .isEqualTo(
                        new RestoredTableList.SplitTableChange(
                                Set.of(), Set.of(LINES))); // orders_2027 is gone: it stays
        assertThat(
                        RestoredTableList.splitChange(
                                List.of(LINES, ORDERS),
                                List.of(ORDERS, LINES),
                                List.of(ORDERS),
                                false))
                .isEqualTo(new RestoredTableList.SplitTableChange(Set.of(), Set.of()));
    }

    @Test
    void withoutTheOptionATableNewlySelectedForARestoredSplitIsLeftToTheStream() {
        assertThat(
                        RestoredTableList.splitChange(
                                List.of(ORDERS, LINES),
                                List.of(ORDERS, NEW),
                                List.of(ORDERS, LINES, NEW),
                                false))
                .isEqualTo(new RestoredTableList.SplitTableChange(Set.of(), Set.of(LINES)));
    }

    @Test
    void withAddingEnabledATableNewlySelectedIsToBeAdded() {
        assertThat(
                        RestoredTableList.splitChange(
                                List.of(ORDERS, LINES),
                                List.of(ORDERS, NEW),
                                List.of(ORDERS, LINES, NEW),
                                true))
                .isEqualTo(new RestoredTableList.SplitTableChange(Set.of(NEW), Set.of(LINES)));
    }
}
