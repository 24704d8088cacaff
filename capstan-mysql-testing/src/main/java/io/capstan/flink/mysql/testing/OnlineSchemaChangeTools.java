package io.capstan.flink.mysql.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * gh-ost and pt-online-schema-change played by their own statements, so that the binlog holds what
 * the tools write: gh-ost (changelog table {@code _t_ghc}, ghost table {@code _t_gho}, chunked
 * {@code INSERT IGNORE INTO _t_gho ... SELECT ... FROM t ... LOCK IN SHARE MODE}, the binlog apply
 * (here: the writer's own changes, replayed into the ghost in their order, as gh-ost replays what
 * it reads from the binlog), the atomic cut-over ({@code LOCK TABLES t WRITE, _t_del WRITE}, the
 * sentry table, the waiting {@code RENAME TABLE t TO _t_del, _t_gho TO t}) and the drop of {@code
 * _t_del}); pt-online-schema-change ({@code _t_new}, AFTER INSERT/UPDATE/DELETE triggers writing
 * into it with REPLACE / DELETE IGNORE, chunked {@code INSERT LOW_PRIORITY IGNORE INTO _t_new ...
 * SELECT ... LOCK IN SHARE MODE} while writes go on, the swap, the drops of {@code _t_old} and the
 * triggers). The statement shapes follow the tools' documented behaviour; the code is this
 * project's. Both migrations add a column {@code c} and drop {@code extra}.
 */
final class OnlineSchemaChangeTools {

    private OnlineSchemaChangeTools() {}

    // ---- gh-ost ---------------------------------------------------------------------------------

    static void ghOst(MySqlTestDatabase db, TableWriter w, long minId) throws Exception {
        String t = w.table;
        String gho = "_" + t + "_gho";
        String ghc = "_" + t + "_ghc";
        String del = "_" + t + "_del";
        db.execute(
                "create /* gh-ost */ table `"
                        + db.name()
                        + "`.`"
                        + ghc
                        + "` (id bigint auto_increment, last_update timestamp not null DEFAULT"
                        + " CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, hint varchar(64) charset"
                        + " ascii not null, value varchar(4096) charset ascii not null, primary"
                        + " key(id), unique key hint_uidx(hint)) auto_increment=256",
                "create /* gh-ost */ table `"
                        + db.name()
                        + "`.`"
                        + gho
                        + "` like `"
                        + db.name()
                        + "`.`"
                        + t
                        + "`",
                "alter /* gh-ost */ table `"
                        + db.name()
                        + "`.`"
                        + gho
                        + "` ADD COLUMN c INT DEFAULT 1 AFTER v, DROP COLUMN extra",
                changelog(db, ghc, "state", "GhostTableMigrated"));
        w.recordForGhost = true; // from here on the "binlog apply" replays the writer's changes
        try (Connection apply = db.openRootConnection()) {
            long max = maxId(apply, t);
            for (long from = minId; from <= max; from += 10) {
                try (Statement st = apply.createStatement()) {
                    st.execute(
                            "insert /* gh-ost `"
                                    + db.name()
                                    + "`.`"
                                    + t
                                    + "` */ ignore into `"
                                    + db.name()
                                    + "`.`"
                                    + gho
                                    + "` (`id`, `v`, `name`) (select `id`, `v`, `name` from `"
                                    + db.name()
                                    + "`.`"
                                    + t
                                    + "` force index (`PRIMARY`) where ((`id` >= "
                                    + from
                                    + ") and (`id` < "
                                    + (from + 10)
                                    + ")) lock in share mode)");
                }
                applyBacklog(apply, w, gho);
            }
            db.execute(changelog(db, ghc, "state", "AllEventsUpToLockProcessed"));
            applyBacklog(apply, w, gho);
            // The atomic cut-over. The writer pauses across it: a write blocked by the lock would
            // run after the RENAME, on the new table, only by MySQL's granting the waiting RENAME
            // before the waiting write, which this test does not rely on.
            w.pause();
            try (Connection lock = db.openRootConnection();
                    Statement ls = lock.createStatement()) {
                ls.execute(
                        "create /* gh-ost */ table `"
                                + db.name()
                                + "`.`"
                                + del
                                + "` (id int auto_increment primary key) engine=InnoDB"
                                + " comment='ghost-cut-over-sentry'");
                ls.execute(
                        "lock /* gh-ost */ tables `"
                                + db.name()
                                + "`.`"
                                + t
                                + "` write, `"
                                + db.name()
                                + "`.`"
                                + del
                                + "` write");
                // Everything the writer committed is in the backlog.
                applyBacklog(apply, w, gho);
                w.recordForGhost = false;
                try (Connection rename = db.openRootConnection()) {
                    long renameId = connectionId(rename);
                    CompletableFuture<Void> renamed =
                            CompletableFuture.runAsync(
                                    () -> {
                                        try (Statement rs = rename.createStatement()) {
                                            rs.execute(
                                                    "rename /* gh-ost */ table `"
                                                            + db.name()
                                                            + "`.`"
                                                            + t
                                                            + "` to `"
                                                            + db.name()
                                                            + "`.`"
                                                            + del
                                                            + "`, `"
                                                            + db.name()
                                                            + "`.`"
                                                            + gho
                                                            + "` to `"
                                                            + db.name()
                                                            + "`.`"
                                                            + t
                                                            + "`");
                                        } catch (SQLException e) {
                                            throw new IllegalStateException(e);
                                        }
                                    });
                    awaitWaiting(apply, renameId, "the RENAME to wait for the lock");
                    ls.execute(
                            "drop /* gh-ost */ table if exists `" + db.name() + "`.`" + del + "`");
                    ls.execute("unlock tables");
                    renamed.get(60, TimeUnit.SECONDS);
                }
            }
        }
        w.resume();
        Thread.sleep(200); // writes into the new table
        db.execute(
                "drop /* gh-ost */ table if exists `" + db.name() + "`.`" + del + "`",
                "drop /* gh-ost */ table if exists `" + db.name() + "`.`" + ghc + "`");
    }

    private static String changelog(MySqlTestDatabase db, String ghc, String hint, String value) {
        return "insert /* gh-ost */ into `"
                + db.name()
                + "`.`"
                + ghc
                + "` (id, hint, value) values (NULLIF(2, 0), '"
                + hint
                + "', '"
                + value
                + "') on duplicate key update last_update=NOW(), value=VALUES(value)";
    }

    /** Replays the writer's committed changes into the ghost table, in their order. */
    private static void applyBacklog(Connection apply, TableWriter w, String gho)
            throws SQLException {
        for (TableWriter.Change ch = w.backlog.poll(); ch != null; ch = w.backlog.poll()) {
            String sql;
            switch (ch.kind()) {
                case 'I':
                    sql = "replace /* gh-ost */ into " + gho + " (id, v, name) values (?, ?, ?)";
                    break;
                case 'U':
                    sql = "update /* gh-ost */ " + gho + " set v = ?, name = ? where id = ?";
                    break;
                default:
                    sql = "delete /* gh-ost */ from " + gho + " where id = ?";
            }
            try (PreparedStatement ps = apply.prepareStatement(sql)) {
                if (ch.kind() == 'I') {
                    ps.setLong(1, ch.id());
                    ps.setInt(2, ch.v());
                    ps.setString(3, ch.name());
                } else if (ch.kind() == 'U') {
                    ps.setInt(1, ch.v());
                    ps.setString(2, ch.name());
                    ps.setLong(3, ch.id());
                } else {
                    ps.setLong(1, ch.id());
                }
                ps.executeUpdate();
            }
        }
    }

    // ---- pt-online-schema-change ----------------------------------------------------------------

    static void ptOsc(MySqlTestDatabase db, String t, long minId) throws Exception {
        String q = "`" + db.name() + "`.";
        String nw = "_" + t + "_new";
        String old = "_" + t + "_old";
        String trigger = "pt_osc_" + db.name() + "_" + t;
        db.execute(
                "CREATE TABLE " + q + "`" + nw + "` LIKE " + q + "`" + t + "`",
                "ALTER TABLE "
                        + q
                        + "`"
                        + nw
                        + "` DROP COLUMN extra, ADD COLUMN c INT DEFAULT 1 FIRST",
                "CREATE TRIGGER `"
                        + trigger
                        + "_del` AFTER DELETE ON "
                        + q
                        + "`"
                        + t
                        + "` FOR EACH ROW DELETE IGNORE FROM "
                        + q
                        + "`"
                        + nw
                        + "` WHERE "
                        + q
                        + "`"
                        + nw
                        + "`.`id` <=> OLD.`id`",
                "CREATE TRIGGER `"
                        + trigger
                        + "_upd` AFTER UPDATE ON "
                        + q
                        + "`"
                        + t
                        + "` FOR EACH ROW BEGIN DELETE IGNORE FROM "
                        + q
                        + "`"
                        + nw
                        + "` WHERE !(OLD.`id` <=> NEW.`id`) AND "
                        + q
                        + "`"
                        + nw
                        + "`.`id` <=> OLD.`id`; REPLACE INTO "
                        + q
                        + "`"
                        + nw
                        + "` (`id`, `v`, `name`) VALUES (NEW.`id`, NEW.`v`, NEW.`name`); END",
                "CREATE TRIGGER `"
                        + trigger
                        + "_ins` AFTER INSERT ON "
                        + q
                        + "`"
                        + t
                        + "` FOR EACH ROW REPLACE INTO "
                        + q
                        + "`"
                        + nw
                        + "` (`id`, `v`, `name`) VALUES (NEW.`id`, NEW.`v`, NEW.`name`)");
        try (Connection copy = db.openRootConnection()) {
            long max = maxId(copy, t);
            for (long from = minId; from <= max; from += 10) {
                try (Statement st = copy.createStatement()) {
                    st.execute(
                            "INSERT LOW_PRIORITY IGNORE INTO "
                                    + q
                                    + "`"
                                    + nw
                                    + "` (`id`, `v`, `name`) SELECT `id`, `v`, `name` FROM "
                                    + q
                                    + "`"
                                    + t
                                    + "` FORCE INDEX(`PRIMARY`) WHERE ((`id` >= "
                                    + from
                                    + ")) AND ((`id` < "
                                    + (from + 10)
                                    + ")) LOCK IN SHARE MODE /*pt-online-schema-change*/");
                }
                Thread.sleep(20); // writes go on between chunks
            }
        }
        db.execute(
                "RENAME TABLE "
                        + q
                        + "`"
                        + t
                        + "` TO "
                        + q
                        + "`"
                        + old
                        + "`, "
                        + q
                        + "`"
                        + nw
                        + "` TO "
                        + q
                        + "`"
                        + t
                        + "`");
        Thread.sleep(200);
        db.execute(
                "DROP TABLE IF EXISTS " + q + "`" + old + "`",
                "DROP TRIGGER IF EXISTS " + q + "`" + trigger + "_del`",
                "DROP TRIGGER IF EXISTS " + q + "`" + trigger + "_upd`",
                "DROP TRIGGER IF EXISTS " + q + "`" + trigger + "_ins`");
    }

    // ---- helpers --------------------------------------------------------------------------------

    private static long maxId(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) FROM " + table)) {
            rs.next();
            return rs.getLong(1) + 50; // and some keys the writer inserts meanwhile
        }
    }

    static long connectionId(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT CONNECTION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits until connection {@code id} waits for a metadata lock. */
    private static void awaitWaiting(Connection c, long id, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (PreparedStatement ps =
                    c.prepareStatement(
                            "SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = ?")) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && String.valueOf(rs.getString(1)).contains("lock")) {
                        return;
                    }
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
