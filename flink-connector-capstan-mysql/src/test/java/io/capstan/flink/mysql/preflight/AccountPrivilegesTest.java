package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.schema.TableId;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AccountPrivilegesTest {

    private static AccountPrivileges account(
            boolean wildcards, boolean caseInsensitive, String... lines) {
        return new AccountPrivileges(
                "capstan", "%", GrantParser.parseAll(List.of(lines)), wildcards, caseInsensitive);
    }

    private static final TableId ORDERS = TableId.of("shop", "orders");

    @Test
    void globalGrantCoversEveryTable() {
        AccountPrivileges p =
                account(true, false, "GRANT SELECT, LOCK TABLES ON *.* TO `capstan`@`%`");
        assertThat(p.hasOnTable("SELECT", ORDERS)).isTrue();
        assertThat(p.hasOnTable("LOCK TABLES", ORDERS)).isTrue();
        assertThat(p.hasGlobal("REPLICATION SLAVE")).isFalse();
    }

    @Test
    void schemaGrantCoversOnlyItsSchema() {
        AccountPrivileges p = account(true, false, "GRANT SELECT ON `shop`.* TO `capstan`@`%`");
        assertThat(p.hasOnTable("SELECT", ORDERS)).isTrue();
        assertThat(p.hasOnTable("SELECT", TableId.of("other", "orders"))).isFalse();
        assertThat(p.hasGlobal("SELECT")).isFalse();
    }

    @Test
    void tableGrantCoversOnlyItsTableAndNeverLockTables() {
        AccountPrivileges p =
                account(true, false, "GRANT ALL PRIVILEGES ON `shop`.`orders` TO `capstan`@`%`");
        assertThat(p.hasOnTable("SELECT", ORDERS)).isTrue();
        assertThat(p.hasOnTable("SELECT", TableId.of("shop", "items"))).isFalse();
        // LOCK TABLES cannot be granted per table, so table-level ALL does not include it.
        assertThat(p.hasOnTable("LOCK TABLES", ORDERS)).isFalse();
    }

    @Test
    void schemaPatternsMatchLikeMySql() {
        AccountPrivileges p = account(true, false, "GRANT SELECT ON `sh_p%`.* TO `capstan`@`%`");
        assertThat(p.hasOnTable("SELECT", ORDERS)).isTrue();
        assertThat(p.hasOnTable("SELECT", TableId.of("shipping", "t"))).isTrue(); // _ = i, % = ping
        assertThat(p.hasOnTable("SELECT", TableId.of("sharp", "t"))).isFalse();
        AccountPrivileges escaped =
                account(true, false, "GRANT SELECT ON `a\\_b`.* TO `capstan`@`%`");
        assertThat(escaped.hasOnTable("SELECT", TableId.of("a_b", "t"))).isTrue();
        assertThat(escaped.hasOnTable("SELECT", TableId.of("axb", "t"))).isFalse();
    }

    @Test
    void withPartialRevokesSchemaNamesAreLiteralAndRevokesSubtract() {
        AccountPrivileges p =
                account(
                        false,
                        false,
                        "GRANT SELECT ON *.* TO `capstan`@`%`",
                        "REVOKE SELECT ON `shop`.* FROM `capstan`@`%`",
                        "GRANT SELECT ON `sh%`.* TO `capstan`@`%`");
        assertThat(p.hasOnTable("SELECT", ORDERS)).isFalse();
        assertThat(p.hasOnTable("SELECT", TableId.of("sh%", "t"))).isTrue();
        assertThat(p.hasOnTable("SELECT", TableId.of("other", "t"))).isTrue();
    }

    @Test
    void namesCompareByLowerCaseTableNames() {
        AccountPrivileges sensitive =
                account(true, false, "GRANT SELECT ON `Shop`.* TO `capstan`@`%`");
        AccountPrivileges insensitive =
                account(true, true, "GRANT SELECT ON `Shop`.* TO `capstan`@`%`");
        assertThat(sensitive.hasOnTable("SELECT", ORDERS)).isFalse();
        assertThat(insensitive.hasOnTable("SELECT", ORDERS)).isTrue();
    }

    @Test
    void accountIsQuotedForGrantStatements() {
        assertThat(
                        new AccountPrivileges("o'neil", "10.0.%", List.of(), true, false)
                                .quotedAccount())
                .isEqualTo("'o''neil'@'10.0.%'");
        assertThat(AccountPrivileges.splitAccount("user@with@host.example"))
                .containsExactly("user@with", "host.example");
    }
}
