package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.binlog.StatementDmlTargets.Name;
import io.capstan.flink.mysql.binlog.StatementDmlTargets.Targets;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class StatementDmlTargetsTest {

    private static Name n(String db, String table) {
        return new Name(db, table);
    }

    private static Targets targets(String sql) {
        Optional<Targets> t = StatementDmlTargets.of(sql);
        assertThat(t).as("DML: %s", sql).isPresent();
        return t.get();
    }

    @Test
    void insertReplaceAndLoadDataWriteTheirTarget() {
        assertThat(targets("INSERT INTO t VALUES (1)").names()).containsExactly(n(null, "t"));
        assertThat(targets("insert low_priority ignore into `shop`.`or ders` (a) values (1)"))
                .isEqualTo(new Targets(java.util.List.of(n("shop", "or ders")), true));
        assertThat(targets("INSERT t SET a = 1").names()).containsExactly(n(null, "t"));
        assertThat(targets("INSERT INTO db.t PARTITION (p0) SELECT * FROM captured").names())
                .containsExactly(n("db", "t"));
        assertThat(targets("REPLACE DELAYED INTO t VALUES (1)").names())
                .containsExactly(n(null, "t"));
        assertThat(
                        targets(
                                        "LOAD DATA LOCAL INFILE '/tmp/x INTO TABLE y' REPLACE INTO TABLE `d`.`t`"
                                                + " FIELDS TERMINATED BY ','")
                                .names())
                .containsExactly(n("d", "t"));
        assertThat(targets("LOAD XML INFILE 'x' INTO TABLE t").names())
                .containsExactly(n(null, "t"));
    }

    @Test
    void commentsBeforeAndInsideAreSkippedAndExecutableCommentsRead() {
        assertThat(targets("/* app=shop */ -- x\n INSERT /* hint */ INTO t VALUES (1)").names())
                .containsExactly(n(null, "t"));
        assertThat(targets("# leading\nUPDATE /*!40000 LOW_PRIORITY */ t SET a = 1").names())
                .containsExactly(n(null, "t"));
    }

    @Test
    void updateWritesEveryTableItNamesBeforeSet() {
        assertThat(targets("UPDATE t SET a = (SELECT max(b) FROM other) WHERE id = 1").names())
                .containsExactly(n(null, "t"));
        assertThat(
                        targets(
                                        "UPDATE LOW_PRIORITY IGNORE a.t1 AS x, t2 y SET x.v = y.v"
                                                + " WHERE x.id = y.id")
                                .names())
                .containsExactly(n("a", "t1"), n(null, "t2"));
        assertThat(
                        targets(
                                        "UPDATE t1 LEFT OUTER JOIN db.t2 ON LEFT(t1.k, 2) = t2.k"
                                                + " STRAIGHT_JOIN (t3 CROSS JOIN `t4`) USING (id)"
                                                + " SET t1.v = 1")
                                .names())
                .containsExactly(n(null, "t1"), n("db", "t2"), n(null, "t3"), n(null, "t4"));
        // derived tables and subqueries in join conditions are read only
        assertThat(
                        targets(
                                        "UPDATE t JOIN (SELECT id FROM captured) d ON d.id = t.id"
                                                + " JOIN u ON u.id IN (SELECT id FROM captured2)"
                                                + " SET t.v = 1")
                                .names())
                .containsExactly(n(null, "t"), n(null, "u"));
    }

    @Test
    void deleteWritesItsTargetsAndTheTablesItJoins() {
        assertThat(targets("DELETE FROM t WHERE id = 1").names()).containsExactly(n(null, "t"));
        assertThat(targets("DELETE QUICK IGNORE FROM db.t AS x WHERE x.id = 1").names())
                .containsExactly(n("db", "t"));
        assertThat(
                        targets("DELETE a, b.* FROM t1 a JOIN db.t2 b ON a.id = b.id WHERE a.x = 1")
                                .names())
                .containsExactly(n(null, "a"), n(null, "b"), n(null, "t1"), n("db", "t2"));
        assertThat(targets("DELETE FROM t1.*, t2 USING t1 INNER JOIN t2 INNER JOIN t3").names())
                .containsExactly(
                        n(null, "t1"), n(null, "t2"), n(null, "t1"), n(null, "t2"), n(null, "t3"));
        assertThat(
                        targets(
                                        "WITH RECURSIVE c (id) AS (SELECT 1) DELETE FROM t WHERE id IN (SELECT id FROM c)")
                                .names())
                .containsExactly(n(null, "t"));
    }

    @Test
    void storedFunctionCallsAndUnreadableDmlCannotBeTold() {
        assertThat(targets("SELECT `shop`.`write_audit`(1)").complete()).isFalse();
        assertThat(targets("DO f()").complete()).isFalse();
        assertThat(targets("INSERT INTO").complete()).isFalse();
        assertThat(targets("UPDATE t SET a = 'unterminated").complete()).isFalse();
        assertThat(targets("/* c */ DELETE FROM t WHERE a = \"x").complete()).isFalse();
    }

    @Test
    void otherStatementsAreNotDml() {
        for (String sql :
                new String[] {
                    "BEGIN",
                    "COMMIT",
                    "SAVEPOINT `s1`",
                    "ROLLBACK TO `s1`",
                    "ALTER TABLE t ADD COLUMN insert_count INT",
                    "CREATE TABLE t (id INT)",
                    "TRUNCATE TABLE t",
                    "DROP TABLE t",
                    "GRANT SELECT ON *.* TO u",
                    "",
                    "/* only a comment */"
                }) {
            assertThat(StatementDmlTargets.of(sql)).as(sql).isEmpty();
        }
    }
}
