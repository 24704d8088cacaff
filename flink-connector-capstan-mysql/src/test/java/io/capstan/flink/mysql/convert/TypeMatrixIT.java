package io.capstan.flink.mysql.convert;

import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole type matrix on a real MySQL: JDBC reads match hand-written values, the binlog table map
 * gives the same schema as information_schema, and binlog rows (inserts, update before/after
 * images, delete before images) equal the JDBC rows field by field (see {@link TypeMatrix}).
 */
class TypeMatrixIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    @Test
    void jdbcMatchesExpectedAndBinlogMatchesJdbc() throws Exception {
        new TypeMatrix(DB, false).run();
    }
}
