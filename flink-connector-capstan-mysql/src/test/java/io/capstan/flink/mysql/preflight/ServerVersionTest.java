package io.capstan.flink.mysql.preflight;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerVersionTest {

    @Test
    void readsMySqlVersions() {
        ServerVersion v = ServerVersion.parse("8.0.15", "MySQL Community Server - GPL");
        assertThat(v.flavour()).isEqualTo(ServerVersion.Flavour.MYSQL);
        assertThat(v).isEqualTo(ServerVersion.mysql(8, 0, 15));
        assertThat(ServerVersion.parse("8.4.3-log", null)).isEqualTo(ServerVersion.mysql(8, 4, 3));
        assertThat(ServerVersion.parse("9.1.0-commercial", ""))
                .isEqualTo(ServerVersion.mysql(9, 1, 0));
        assertThat(ServerVersion.parse("8.0.36-28", "Percona Server (GPL), Release 28").flavour())
                .isEqualTo(ServerVersion.Flavour.MYSQL);
    }

    @Test
    void recognisesMariaDb() {
        assertThat(ServerVersion.parse("10.11.6-MariaDB-0+deb12u1", "Debian 12").flavour())
                .isEqualTo(ServerVersion.Flavour.MARIADB);
        assertThat(
                        ServerVersion.parse("5.5.5-10.11.6", "mariadb.org binary distribution")
                                .flavour())
                .isEqualTo(ServerVersion.Flavour.MARIADB);
    }

    @Test
    void readsMariaDbsNumbersBehindTheOldClientPrefix() {
        ServerVersion v = ServerVersion.parse("5.5.5-10.11.6-MariaDB", "mariadb.org");
        assertThat(v).isEqualTo(ServerVersion.mariaDb(10, 11, 6));
        assertThat(v.isMariaDb()).isTrue();
        assertThat(ServerVersion.parse("10.11.19-MariaDB-0+deb12u1-log", "Debian 12"))
                .isEqualTo(ServerVersion.mariaDb(10, 11, 19));
        assertThat(ServerVersion.mariaDb(10, 6, 16).compareTo(ServerVersion.mariaDb(10, 11, 0)))
                .isNegative();
        assertThat(ServerVersion.mysql(8, 0, 15).isMariaDb()).isFalse();
    }

    @Test
    void comparesNumerically() {
        assertThat(ServerVersion.mysql(8, 0, 9).compareTo(ServerVersion.mysql(8, 0, 11)))
                .isNegative();
        assertThat(ServerVersion.mysql(8, 4, 0).isMySqlAtLeast(8, 0, 11)).isTrue();
        assertThat(ServerVersion.parse("10.11.6-MariaDB", "").isMySqlAtLeast(8, 0, 0)).isFalse();
    }

    @Test
    void rejectsTextWithoutNumbers() {
        assertThatThrownBy(() -> ServerVersion.parse("unknown", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("@@version");
    }
}
