package io.capstan.flink.mysql.preflight;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class GrantParserTest {

    @Test
    void globalPrivilegesAsMySql8PrintsThem() {
        assertThat(
                        GrantParser.parse(
                                "GRANT SELECT, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT"
                                        + " ON *.* TO `capstan`@`%`"))
                .contains(
                        Grant.global(
                                Set.of(
                                        "SELECT",
                                        "LOCK TABLES",
                                        "REPLICATION SLAVE",
                                        "REPLICATION CLIENT")));
    }

    @Test
    void schemaAndTableLevels() {
        assertThat(GrantParser.parse("GRANT SELECT, INSERT ON `shop`.* TO `u`@`10.0.%`"))
                .contains(Grant.schema("shop", Set.of("SELECT", "INSERT")));
        assertThat(
                        GrantParser.parse(
                                "GRANT SELECT ON `shop`.`orders` TO `u`@`%` WITH GRANT OPTION"))
                .contains(Grant.table("shop", "orders", Set.of("SELECT")));
    }

    @Test
    void quotedNamesKeepDotsSpacesAndDoubledQuotes() {
        assertThat(GrantParser.parse("GRANT SELECT ON `my.db`.`odd``name on x` TO `u`@`%`"))
                .contains(Grant.table("my.db", "odd`name on x", Set.of("SELECT")));
        assertThat(GrantParser.parse("GRANT SELECT ON \"ansi\".\"t\" TO \"u\"@\"%\""))
                .contains(Grant.table("ansi", "t", Set.of("SELECT")));
    }

    @Test
    void columnLevelPrivilegesAreNotTableWide() {
        assertThat(GrantParser.parse("GRANT SELECT (`id`, `name`), INSERT ON `db`.`t` TO `u`@`%`"))
                .contains(Grant.table("db", "t", Set.of("INSERT")));
    }

    @Test
    void partialRevokeIsAnSchemaRevoke() {
        assertThat(GrantParser.parse("REVOKE SELECT ON `secret`.* FROM `u`@`%`"))
                .contains(Grant.schemaRevoke("secret", Set.of("SELECT")));
    }

    @Test
    void roleGrantsAndProxyAndRoutinesGrantNoTablePrivilege() {
        assertThat(GrantParser.parse("GRANT `reader`@`%`,`ops`@`%` TO `u`@`%`")).isEmpty();
        assertThat(
                        GrantParser.parse(
                                "GRANT PROXY ON ''@'' TO 'root'@'localhost' WITH GRANT OPTION"))
                .hasValueSatisfying(g -> assertThat(g.level()).isEqualTo(Grant.Level.OTHER));
        assertThat(GrantParser.parse("GRANT EXECUTE ON PROCEDURE `db`.`p` TO `u`@`%`"))
                .hasValueSatisfying(g -> assertThat(g.level()).isEqualTo(Grant.Level.OTHER));
        assertThat(GrantParser.parse("something else")).isEmpty();
    }

    @Test
    void privilegeNamesAreNormalised() {
        assertThat(GrantParser.parse("grant replication   slave on *.* to `u`@`%`"))
                .contains(Grant.global(Set.of("REPLICATION SLAVE")));
    }

    @Test
    void allPrivilegesNamesEveryPrivilege() {
        Grant g = GrantParser.parse("GRANT ALL PRIVILEGES ON `db`.* TO `u`@`%`").orElseThrow();
        assertThat(g.names("LOCK TABLES")).isTrue();
        assertThat(g.names("SELECT")).isTrue();
    }

    @Test
    void mariaDbLinesWithAPasswordHashRolesAndDefaultRoles() {
        Grant global =
                GrantParser.parse(
                                "GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO `u`@`%`"
                                        + " IDENTIFIED BY PASSWORD"
                                        + " '*7648E52EC79D4BB879B7B913F0B8BBF8DC4AB6CC'")
                        .orElseThrow();
        assertThat(global).isEqualTo(Grant.global(Set.of("REPLICATION SLAVE", "BINLOG MONITOR")));
        assertThat(global.toString()).doesNotContain("7648E52E", "PASSWORD");
        assertThat(GrantParser.parse("GRANT SELECT, LOCK TABLES ON `db`.* TO `u`@`%`"))
                .contains(Grant.schema("db", Set.of("SELECT", "LOCK TABLES")));
        assertThat(GrantParser.parse("GRANT `capstan_role` TO `u`@`%`")).isEmpty();
        assertThat(GrantParser.parse("SET DEFAULT ROLE `capstan_role` FOR `u`@`%`")).isEmpty();
        assertThat(GrantParser.parse("GRANT USAGE ON *.* TO `capstan_role`"))
                .contains(Grant.global(Set.of("USAGE")));
    }
}
