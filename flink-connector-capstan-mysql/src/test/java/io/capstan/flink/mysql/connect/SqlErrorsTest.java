package io.capstan.flink.mysql.connect;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class SqlErrorsTest {

    @Test
    void aStatementErrorKeepsCodesOnlyNeverTheServersMessage() {
        SQLException e =
                new SQLException("Incorrect datetime value: 'SECRET-VALUE'", "22007", 1292);
        IOException scrubbed = SqlErrors.scrub("could not read", e);
        assertThat(scrubbed.getMessage())
                .isEqualTo("could not read (MySQL error 1292, SQLState 22007)");
        assertThat(scrubbed.getCause()).isNull();
    }

    @Test
    void aRefusedLoginSaysAccessDeniedInItsOwnWords() {
        SQLException e =
                new SQLException(
                        "Access denied for user 'u'@'h' (using password: YES)", "28000", 1045);
        IOException scrubbed = SqlErrors.scrub("could not connect", e);
        assertThat(scrubbed.getMessage())
                .contains("Access denied")
                .contains("1045")
                .doesNotContain("'u'@'h'");
        assertThat(scrubbed.getCause()).isNull();
    }

    @Test
    void aConnectionFailureKeepsItsCause() {
        SQLException e = new SQLException("Communications link failure", "08S01", 0);
        assertThat(SqlErrors.scrub("could not connect", e).getCause()).isSameAs(e);
    }
}
