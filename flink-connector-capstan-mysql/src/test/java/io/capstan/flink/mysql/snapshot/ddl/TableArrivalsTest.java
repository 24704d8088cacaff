package io.capstan.flink.mysql.snapshot.ddl;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TableArrivalsTest {

    private static TableArrivals of(String sql) {
        Optional<TableArrivals> a = TableArrivals.of(sql);
        assertThat(a).as(sql).isPresent();
        return a.get();
    }

    private static List<String> renamed(String sql) {
        return of(sql).renamedInto().stream().map(n -> n[0] + "." + n[1]).toList();
    }

    @Test
    void createTableNamesTheNewTableAsWritten() {
        assertThat(of("CREATE TABLE shop.orders_2 (id INT PRIMARY KEY)").created())
                .containsExactly(
                        new TableArrivals.Creation(
                                "shop", "orders_2", false, false, false, false, null));
        assertThat(of("create table `orders_2` like orders_1").created())
                .containsExactly(
                        new TableArrivals.Creation(
                                null,
                                "orders_2",
                                false,
                                false,
                                false,
                                false,
                                new TableArrivals.Name(null, "orders_1")));
        assertThat(of("CREATE TABLE IF NOT EXISTS o2 (LIKE shop.o1)").created().get(0).likeSource())
                .isEqualTo(new TableArrivals.Name("shop", "o1"));
    }

    @Test
    void createTableFlagsIfNotExistsAndTemporary() {
        assertThat(of("CREATE TABLE IF NOT EXISTS shop.o (id INT)").created())
                .containsExactly(
                        new TableArrivals.Creation("shop", "o", true, false, false, false, null));
        assertThat(of("CREATE TEMPORARY TABLE shop.o (id INT)").created())
                .containsExactly(
                        new TableArrivals.Creation("shop", "o", false, true, false, false, null));
    }

    @Test
    void atomicCreateSelectAsTheBinlogCarriesItIsACreation() {
        assertThat(of("CREATE TABLE `shop`.`o3` (`id` int NOT NULL) START TRANSACTION").created())
                .containsExactly(
                        new TableArrivals.Creation("shop", "o3", false, false, false, false, null));
    }

    @Test
    void mariaDbSystemVersioningOfTheTableOrAColumnIsFlagged() {
        assertThat(of("CREATE TABLE shop.v (id INT PRIMARY KEY) WITH SYSTEM VERSIONING").created())
                .containsExactly(
                        new TableArrivals.Creation("shop", "v", false, false, true, false, null));
        assertThat(of("create table v (id int, x int with system versioning)").created())
                .containsExactly(
                        new TableArrivals.Creation(null, "v", false, false, true, false, null));
        assertThat(of("CREATE TABLE shop.v (id INT, x INT WITHOUT SYSTEM VERSIONING)").created())
                .containsExactly(
                        new TableArrivals.Creation("shop", "v", false, false, false, false, null));
    }

    /** MariaDB's UUID, INET4 and INET6 as a column's type; a column named so is not one. */
    @Test
    void mariaDbOwnTypesAsAColumnTypeAreFlagged() {
        for (String sql :
                List.of(
                        "CREATE TABLE t (id INT PRIMARY KEY, u UUID)",
                        "create table t (id int, `a` inet6 not null, b int)",
                        "CREATE TABLE t (id INT, a INET4 DEFAULT '0.0.0.0')",
                        "CREATE TABLE t (uuid UUID)",
                        "CREATE TABLE t (id INT, u UUID, KEY (u))",
                        "CREATE TABLE t (id INT, c CHAR(36) AS (CAST(x AS UUID)))")) {
            assertThat(of(sql).created().get(0).mariaDbTyped()).as(sql).isTrue();
        }
        for (String sql :
                List.of(
                        "CREATE TABLE t (id INT PRIMARY KEY, uuid CHAR(36))",
                        "CREATE TABLE t (id INT, `inet6` VARBINARY(16), KEY (uuid))",
                        "CREATE TABLE t (id INT, u BINARY(16) DEFAULT UUID())",
                        "CREATE TABLE t (id INT, c CHAR(36) COMMENT 'a UUID')",
                        "CREATE TABLE t (uuid BIGINT, inet4 INT, PRIMARY KEY (uuid, inet4))")) {
            assertThat(of(sql).created().get(0).mariaDbTyped()).as(sql).isFalse();
        }
    }

    @Test
    void alterGivingAColumnAMariaDbOwnTypeIsTold() {
        for (String sql :
                List.of(
                        "ALTER TABLE shop.t ADD COLUMN u UUID",
                        "ALTER TABLE shop.t ADD u INET6, ADD v INT",
                        "ALTER TABLE shop.t MODIFY c UUID NOT NULL",
                        "ALTER TABLE shop.t CHANGE uuid uuid UUID",
                        "ALTER TABLE shop.t ADD (a INT, b INET4)")) {
            assertThat(TableRemovals.of(sql).orElseThrow().mariaDbTyped())
                    .as(sql)
                    .extracting(n -> n[1])
                    .containsExactly("t");
        }
        for (String sql :
                List.of(
                        "ALTER TABLE shop.t ADD COLUMN uuid CHAR(36)",
                        "ALTER TABLE shop.t DROP COLUMN uuid",
                        "ALTER TABLE shop.t CHANGE u uuid BINARY(16)",
                        "ALTER TABLE shop.t RENAME COLUMN x TO uuid",
                        "ALTER TABLE shop.t ADD INDEX (uuid), ADD c INT AFTER inet6",
                        "ALTER TABLE shop.t ALTER COLUMN uuid SET DEFAULT UUID()",
                        "ALTER TABLE shop.t ADD CONSTRAINT uuid UNIQUE (a), DROP INDEX inet4")) {
            assertThat(TableRemovals.of(sql).orElseThrow().mariaDbTyped()).as(sql).isEmpty();
        }
    }

    /** MariaDB's CREATE OR REPLACE TABLE drops the table it replaces; a temporary one does not. */
    @Test
    void createOrReplaceRemovesTheTableItReplaces() {
        assertThat(
                        TableRemovals.of("CREATE OR REPLACE TABLE shop.t (id INT)")
                                .orElseThrow()
                                .removed())
                .extracting(n -> n[0] + "." + n[1])
                .containsExactly("shop.t");
        assertThat(
                        TableRemovals.of("CREATE OR REPLACE TEMPORARY TABLE shop.t (id INT)")
                                .orElseThrow()
                                .removed())
                .isEmpty();
        assertThat(TableRemovals.of("CREATE TABLE shop.t (id INT)").orElseThrow().removed())
                .isEmpty();
    }

    @Test
    void aSequenceIsNoTable() {
        for (String sql :
                List.of(
                        "CREATE SEQUENCE shop.s",
                        "CREATE OR REPLACE SEQUENCE IF NOT EXISTS s START WITH 10",
                        "ALTER SEQUENCE shop.s RESTART 5")) {
            assertThat(of(sql).created()).as(sql).isEmpty();
        }
    }

    @Test
    void renamesBringInTheirNewNames() {
        assertThat(renamed("RENAME TABLE shop.a TO shop.b, shop.c TO d"))
                .containsExactly("shop.b", "null.d");
        assertThat(renamed("ALTER TABLE shop.a ADD COLUMN x INT, RENAME TO shop.b"))
                .containsExactly("shop.b");
        assertThat(of("ALTER TABLE shop.a RENAME COLUMN x TO y").renamedInto()).isEmpty();
        assertThat(of("RENAME TABLE shop.a TO shop.b").created()).isEmpty();
    }

    @Test
    void otherStatementsBringNothing() {
        for (String sql :
                List.of(
                        "CREATE VIEW shop.v AS SELECT 1",
                        "CREATE INDEX i ON shop.o (x)",
                        "DROP TABLE shop.o",
                        "TRUNCATE shop.o",
                        "GRANT SELECT ON shop.* TO u",
                        "CREATE DATABASE shop2",
                        "ALTER TABLE shop.o ADD COLUMN x INT")) {
            assertThat(of(sql)).as(sql).isEqualTo(TableArrivals.NONE);
        }
    }

    @Test
    void anUnreadableCreateRenameOrAlterIsNotUnderstood() {
        assertThat(TableArrivals.of("CREATE TABLE `shop.o (id INT)")).isEmpty();
        assertThat(TableArrivals.of("RENAME TABLE shop.a")).isEmpty();
        assertThat(TableArrivals.of("CREATE FANCY THING")).isEmpty();
        // other statements the parser cannot read bring no table in
        assertThat(TableArrivals.of("OPTIMIZE `unterminated")).contains(TableArrivals.NONE);
    }
}
