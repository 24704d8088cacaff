package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.schema.TableId;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.capstan.flink.mysql.table.TableFixtures.ordersSchema;
import static io.capstan.flink.mysql.table.TableFixtures.ordersShape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class DeclaredSchemaCheckTest {

    private static ResolvedSchema schema(UniqueConstraint pk, Column... columns) {
        return new ResolvedSchema(List.of(columns), Collections.emptyList(), pk);
    }

    @Test
    void fittingDeclarationPasses() {
        assertThatCode(
                        () ->
                                DeclaredSchemaCheck.check(
                                        ordersSchema(),
                                        List.of(ordersShape("orders")),
                                        Optional.empty()))
                .doesNotThrowAnyException();
    }

    @Test
    void subsetOfColumnsCaseInsensitiveAndWideningsPass() {
        ResolvedSchema s =
                schema(
                        UniqueConstraint.primaryKey("pk", List.of("ID")),
                        Column.physical("ID", DataTypes.DECIMAL(20, 0).notNull()),
                        Column.physical("status", DataTypes.STRING()),
                        Column.physical("customer_id", DataTypes.BIGINT()));
        assertThatCode(
                        () ->
                                DeclaredSchemaCheck.check(
                                        s, List.of(ordersShape("orders")), Optional.empty()))
                .doesNotThrowAnyException();
    }

    @Test
    void typeMismatchNamesColumnMySqlTypeDeclaredTypeAndWhatFits() {
        ResolvedSchema s =
                schema(
                        null,
                        Column.physical("amount", DataTypes.INT()),
                        Column.physical("updated_at", DataTypes.TIMESTAMP(3)),
                        Column.physical("status", DataTypes.DATE()));
        assertThatThrownBy(
                        () ->
                                DeclaredSchemaCheck.check(
                                        s, List.of(ordersShape("orders")), Optional.empty()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("`shop`.`orders`")
                .hasMessageContaining(
                        "column 'amount': MySQL type DECIMAL(12,2) is read as DECIMAL(12, 2), declared INT")
                .hasMessageContaining("declare DECIMAL(12, 2)")
                .hasMessageContaining(
                        "column 'updated_at': MySQL type TIMESTAMP(3) is read as TIMESTAMP_LTZ(3), declared TIMESTAMP(3)")
                .hasMessageContaining("column 'status': MySQL type VARCHAR(16)")
                .hasMessageContaining("declare VARCHAR(16)");
    }

    @Test
    void narrowerIntegersAndStringsAreAcceptedToBeCheckedPerValue() {
        ResolvedSchema s =
                schema(
                        null,
                        Column.physical("id", DataTypes.INT()),
                        Column.physical("status", DataTypes.VARCHAR(8)));
        DeclaredSchemaCheck.check(s, List.of(ordersShape("orders")), Optional.empty());
    }

    @Test
    void notNullOnANullableColumnIsRefused() {
        ResolvedSchema s = schema(null, Column.physical("customer_id", DataTypes.INT().notNull()));
        assertThatThrownBy(
                        () ->
                                DeclaredSchemaCheck.check(
                                        s, List.of(ordersShape("orders")), Optional.empty()))
                .hasMessageContaining("column 'customer_id'")
                .hasMessageContaining("allows NULL");
    }

    @Test
    void unknownColumnsAreListedWithTheTablesColumns() {
        ResolvedSchema s =
                schema(
                        null,
                        Column.physical("id", DataTypes.BIGINT()),
                        Column.physical("colour", DataTypes.STRING()),
                        Column.physical("size", DataTypes.INT()));
        assertThatThrownBy(
                        () ->
                                DeclaredSchemaCheck.check(
                                        s, List.of(ordersShape("orders")), Optional.empty()))
                .hasMessageContaining("column(s) 'colour', 'size' do not exist in the MySQL table")
                .hasMessageContaining("'id', 'customer_id', 'status', 'amount', 'updated_at'");
    }

    @Test
    void primaryKeyMustBeTheTablesKey() {
        ResolvedSchema s =
                schema(
                        UniqueConstraint.primaryKey("pk", List.of("customer_id")),
                        Column.physical("id", DataTypes.BIGINT()),
                        Column.physical("customer_id", DataTypes.INT().notNull()));
        assertThatThrownBy(
                        () ->
                                DeclaredSchemaCheck.check(
                                        s, List.of(ordersShape("orders")), Optional.empty()))
                .hasMessageContaining(
                        "declared PRIMARY KEY 'customer_id' differs from the MySQL primary key 'id'")
                .hasMessageContaining("PRIMARY KEY (id) NOT ENFORCED");
    }

    @Test
    void keylessTableTakesTheChunkKeyColumnAsKey() {
        MySqlTableShape keyless =
                new MySqlTableShape(
                        TableId.of("shop", "log"),
                        List.of(
                                new MySqlTableShape.Column(
                                        "seq", "INT NOT NULL", new IntType(false)),
                                new MySqlTableShape.Column(
                                        "msg", "VARCHAR(10)", new VarCharType(true, 10))),
                        List.of());
        ResolvedSchema s =
                schema(
                        UniqueConstraint.primaryKey("pk", List.of("seq")),
                        Column.physical("seq", DataTypes.INT().notNull()),
                        Column.physical("msg", DataTypes.STRING()));
        assertThatThrownBy(() -> DeclaredSchemaCheck.check(s, List.of(keyless), Optional.empty()))
                .hasMessageContaining("has no primary key")
                .hasMessageContaining("scan.incremental.snapshot.chunk.key-column");
        assertThatCode(() -> DeclaredSchemaCheck.check(s, List.of(keyless), Optional.of("seq")))
                .doesNotThrowAnyException();
        assertThatThrownBy(
                        () -> DeclaredSchemaCheck.check(s, List.of(keyless), Optional.of("nope")))
                .hasMessageContaining("'scan.incremental.snapshot.chunk.key-column' names 'nope'");
        // A chunk key column without a UNIQUE index of its own cuts ranges of values: no key.
        MySqlTableShape valueRanges =
                new MySqlTableShape(keyless.tableId(), keyless.columns(), List.of(), false);
        assertThatThrownBy(
                        () ->
                                DeclaredSchemaCheck.check(
                                        s, List.of(valueRanges), Optional.of("seq")))
                .hasMessageContaining("no UNIQUE index of its own")
                .hasMessageContaining("declare no primary key");
    }

    @Test
    void shardsOfDifferentShapesAreCheckedEachOnItsOwn() {
        MySqlTableShape a = ordersShape("orders_1");
        List<MySqlTableShape.Column> cols = new ArrayList<>(ordersShape("orders_2").columns());
        cols.set(
                1,
                new MySqlTableShape.Column("customer_id", "VARCHAR(8)", new VarCharType(true, 8)));
        cols.add(new MySqlTableShape.Column("extra", "INT", new IntType(true)));
        cols.remove(3); // no 'amount'
        MySqlTableShape b =
                new MySqlTableShape(TableId.of("shop", "orders_2"), cols, List.of("id"));
        // 'customer_id' INT does not hold orders_2's VARCHAR: named with the table
        assertThatThrownBy(
                        () ->
                                DeclaredSchemaCheck.check(
                                        ordersSchema(), List.of(a, b), Optional.empty()))
                .hasMessageContaining(
                        "in `shop`.`orders_2`: column 'customer_id': MySQL type VARCHAR(8)")
                .hasMessageNotContaining("'amount'");
        // 'amount' (nullable) is NULL in orders_2's rows, 'extra' in orders_1's
        ResolvedSchema wide =
                schema(
                        null,
                        Column.physical("id", DataTypes.BIGINT().notNull()),
                        Column.physical("amount", DataTypes.DECIMAL(12, 2)),
                        Column.physical("extra", DataTypes.INT()));
        assertThatCode(() -> DeclaredSchemaCheck.check(wide, List.of(a, b), Optional.empty()))
                .doesNotThrowAnyException();
        assertThat(DeclaredSchemaCheck.absentColumns(wide, List.of(a, b)))
                .containsOnly(
                        entry(TableId.of("shop", "orders_1"), Set.of("extra")),
                        entry(TableId.of("shop", "orders_2"), Set.of("amount")));
        // a NOT NULL declared column a shard lacks: refused naming both
        ResolvedSchema notNull =
                schema(
                        null,
                        Column.physical("id", DataTypes.BIGINT().notNull()),
                        Column.physical("amount", DataTypes.DECIMAL(12, 2).notNull()));
        MySqlTableShape c =
                new MySqlTableShape(
                        TableId.of("shop", "orders_3"),
                        List.of(
                                new MySqlTableShape.Column(
                                        "id", "BIGINT NOT NULL", new BigIntType(false)),
                                new MySqlTableShape.Column(
                                        "amount",
                                        "DECIMAL(12,2) NOT NULL",
                                        new DecimalType(false, 12, 2))),
                        List.of("id"));
        assertThatThrownBy(
                        () -> DeclaredSchemaCheck.check(notNull, List.of(c, b), Optional.empty()))
                .hasMessageContaining(
                        "column 'amount' is declared NOT NULL, but `shop`.`orders_2` has no such"
                                + " column");
        // a column no table has is still unknown
        ResolvedSchema typo = schema(null, Column.physical("amuont", DataTypes.INT()));
        assertThatThrownBy(() -> DeclaredSchemaCheck.check(typo, List.of(a, b), Optional.empty()))
                .hasMessageContaining("'amuont' do not exist in any matched MySQL table");
        assertThatCode(
                        () ->
                                DeclaredSchemaCheck.check(
                                        ordersSchema(),
                                        List.of(a, ordersShape("orders_2")),
                                        Optional.empty()))
                .doesNotThrowAnyException();
    }
}
