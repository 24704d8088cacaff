package io.capstan.flink.mysql.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Schema changes of captured tables while writers keep writing: one table per scenario, each with
 * its own writer thread (inserts, updates, deletes of single rows, autocommit) running before,
 * during and after its change. Every table starts as {@code (id BIGINT PRIMARY KEY, v INT, name
 * VARCHAR(20), extra INT DEFAULT 5)}; a job declares {@code id, v, name}, the columns every
 * scenario keeps ({@link #contents}).
 *
 * <p>The online schema-change tools are played by their own statements, so that the binlog holds
 * what the tools write: gh-ost (changelog table {@code _t_ghc}, ghost table {@code _t_gho}, chunked
 * {@code INSERT IGNORE INTO _t_gho ... SELECT ... FROM t ... LOCK IN SHARE MODE}, the binlog apply
 * (here: the writer's own changes, replayed into the ghost in their order, as gh-ost replays what
 * it reads from the binlog), the atomic cut-over ({@code LOCK TABLES t WRITE, _t_del WRITE}, the
 * sentry table, the waiting {@code RENAME TABLE t TO _t_del, _t_gho TO t}) and the drop of {@code
 * _t_del}); pt-online-schema-change ({@code _t_new}, AFTER INSERT/UPDATE/DELETE triggers writing
 * into it with REPLACE / DELETE IGNORE, chunked {@code INSERT LOW_PRIORITY IGNORE INTO _t_new ...
 * SELECT ... LOCK IN SHARE MODE} while writes go on, the swap, the drops of {@code _t_old} and the
 * triggers). The statement shapes follow the tools' documented behaviour; the code is this
 * project's.
 */
public final class SchemaChangeWorkload {

    /** The scenario tables (each name is also what a job's table list selects: {@code sc_.*}). */
    public static final List<String> TABLES =
            List.of(
                    "sc_add_last",
                    "sc_add_after",
                    "sc_add_first",
                    "sc_drop_col",
                    "sc_rename_col",
                    "sc_modify_col",
                    "sc_add_index",
                    "sc_ghost",
                    "sc_ptosc");

    private static final int INITIAL_ROWS = 30;

    /**
     * Table i writes keys from KEY_RANGE * (i + 1) on: a key tells its table ({@link #tableOf}).
     */
    public static final long KEY_RANGE = 1_000_000L;

    private final MySqlTestDatabase db;
    private final List<Writer> writers = new ArrayList<>();

    public SchemaChangeWorkload(MySqlTestDatabase db) {
        this.db = db;
    }

    /** The scenario table whose writer wrote key {@code id}. */
    public static String tableOf(long id) {
        return TABLES.get((int) (id / KEY_RANGE) - 1);
    }

    /** Creates the tables, empty (their rows come after a job's start position). */
    public void createTables() {
        for (String t : TABLES) {
            db.execute(
                    "CREATE TABLE "
                            + t
                            + " (id BIGINT NOT NULL PRIMARY KEY, v INT, name VARCHAR(20),"
                            + " extra INT DEFAULT 5)");
        }
    }

    /** Fills the tables and starts one writer per table. */
    public void startWriters() throws SQLException {
        for (int i = 0; i < TABLES.size(); i++) {
            Writer w = new Writer(TABLES.get(i), KEY_RANGE * (i + 1));
            w.fill();
            writers.add(w);
        }
        for (Writer w : writers) {
            w.thread.start();
        }
    }

    /** Runs every scenario's change, one after the other, while the writers write. */
    public void runChanges() throws Exception {
        Thread.sleep(500);
        alter("sc_add_last", "ADD COLUMN c INT DEFAULT 1");
        alter("sc_add_after", "ADD COLUMN c INT DEFAULT 1 AFTER id");
        alter("sc_add_first", "ADD COLUMN c INT DEFAULT 1 FIRST");
        alter("sc_drop_col", "DROP COLUMN extra");
        alter("sc_rename_col", "RENAME COLUMN extra TO extra2");
        alter("sc_modify_col", "MODIFY name VARCHAR(64)");
        alter("sc_add_index", "ADD INDEX v_idx (v)");
        ghOst(writer("sc_ghost"));
        ptOsc("sc_ptosc");
        Thread.sleep(500);
    }

    /** Stops the writers (each finishes its statement) and fails if one failed. */
    public void stopWriters() throws Exception {
        for (Writer w : writers) {
            w.stop = true;
        }
        for (Writer w : writers) {
            w.thread.join(TimeUnit.SECONDS.toMillis(60));
            if (w.failure != null) {
                throw new AssertionError("writer of " + w.table + " failed", w.failure);
            }
        }
    }

    /** Changes written per table (inserts, updates, deletes). */
    public int changesWritten() {
        return writers.stream().mapToInt(w -> w.written).sum();
    }

    /** The declared columns of {@code table} as MySQL holds them: id to "v|name". */
    public Map<Long, String> contents(String table) throws SQLException {
        Map<Long, String> out = new TreeMap<>();
        try (Connection c = db.openRootConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, v, name FROM " + table)) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getObject(2) + "|" + rs.getString(3));
            }
        }
        return out;
    }

    private void alter(String table, String change) throws InterruptedException {
        db.execute("ALTER TABLE " + table + " " + change);
        Thread.sleep(200); // writes after the change
    }

    private Writer writer(String table) {
        return writers.stream().filter(w -> w.table.equals(table)).findFirst().orElseThrow();
    }

    // ---- gh-ost ---------------------------------------------------------------------------------

    private void ghOst(Writer w) throws Exception {
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
                changelog(ghc, "state", "GhostTableMigrated"));
        w.recordForGhost = true; // from here on the "binlog apply" replays the writer's changes
        try (Connection apply = db.openRootConnection()) {
            long max = maxId(apply, t);
            for (long from = minId(t); from <= max; from += 10) {
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
            db.execute(changelog(ghc, "state", "AllEventsUpToLockProcessed"));
            applyBacklog(apply, w, gho);
            // The atomic cut-over.
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
                // The writer now waits for the lock: everything it committed is in the backlog.
                awaitWaiting(apply, w.connectionId, "the writer of " + t + " to wait for the lock");
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
        Thread.sleep(200); // writes into the new table
        db.execute(
                "drop /* gh-ost */ table if exists `" + db.name() + "`.`" + del + "`",
                "drop /* gh-ost */ table if exists `" + db.name() + "`.`" + ghc + "`");
    }

    private String changelog(String ghc, String hint, String value) {
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
    private static void applyBacklog(Connection apply, Writer w, String gho) throws SQLException {
        for (Change ch = w.backlog.poll(); ch != null; ch = w.backlog.poll()) {
            String sql;
            switch (ch.kind) {
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
                if (ch.kind == 'I') {
                    ps.setLong(1, ch.id);
                    ps.setInt(2, ch.v);
                    ps.setString(3, ch.name);
                } else if (ch.kind == 'U') {
                    ps.setInt(1, ch.v);
                    ps.setString(2, ch.name);
                    ps.setLong(3, ch.id);
                } else {
                    ps.setLong(1, ch.id);
                }
                ps.executeUpdate();
            }
        }
    }

    // ---- pt-online-schema-change ----------------------------------------------------------------

    private void ptOsc(String t) throws Exception {
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
            for (long from = minId(t); from <= max; from += 10) {
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

    private static long minId(String table) {
        return KEY_RANGE * (TABLES.indexOf(table) + 1);
    }

    private static long maxId(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) FROM " + table)) {
            rs.next();
            return rs.getLong(1) + 50; // and some keys the writer inserts meanwhile
        }
    }

    private static long connectionId(Connection c) throws SQLException {
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

    private record Change(char kind, long id, int v, String name) {}

    /** One table's writer: single-row autocommit changes, about one per 10 ms. */
    private final class Writer implements Runnable {
        final String table;
        final Thread thread;
        final ConcurrentLinkedQueue<Change> backlog = new ConcurrentLinkedQueue<>();
        final List<Long> keys = new ArrayList<>();
        final Random random;
        volatile boolean stop;
        volatile boolean recordForGhost;
        volatile Throwable failure;
        volatile long connectionId;
        long nextKey;
        int written;

        Writer(String table, long firstKey) {
            this.table = table;
            this.nextKey = firstKey;
            this.random = new Random(firstKey);
            this.thread = new Thread(this, "writer-" + table);
        }

        void fill() throws SQLException {
            try (Connection c = db.openRootConnection()) {
                for (int i = 0; i < INITIAL_ROWS; i++) {
                    insert(c);
                }
            }
        }

        @Override
        public void run() {
            try (Connection c = db.openRootConnection()) {
                connectionId = connectionId(c);
                while (!stop) {
                    int op = random.nextInt(10);
                    if (op < 5 || keys.size() < 5) {
                        insert(c);
                    } else if (op < 8) {
                        update(c);
                    } else {
                        delete(c);
                    }
                    Thread.sleep(10);
                }
            } catch (Throwable e) {
                failure = e;
            }
        }

        private void insert(Connection c) throws SQLException {
            long id = nextKey++;
            int v = random.nextInt(1000);
            String name = "n" + random.nextInt(100_000);
            try (PreparedStatement ps =
                    c.prepareStatement(
                            "INSERT INTO " + table + " (id, v, name) VALUES (?, ?, ?)")) {
                ps.setLong(1, id);
                ps.setInt(2, v);
                ps.setString(3, name);
                ps.executeUpdate();
            }
            keys.add(id);
            done(new Change('I', id, v, name));
        }

        private void update(Connection c) throws SQLException {
            long id = keys.get(random.nextInt(keys.size()));
            int v = random.nextInt(1000);
            String name = "u" + random.nextInt(100_000);
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE " + table + " SET v = ?, name = ? WHERE id = ?")) {
                ps.setInt(1, v);
                ps.setString(2, name);
                ps.setLong(3, id);
                ps.executeUpdate();
            }
            done(new Change('U', id, v, name));
        }

        private void delete(Connection c) throws SQLException {
            long id = keys.remove(random.nextInt(keys.size()));
            try (PreparedStatement ps =
                    c.prepareStatement("DELETE FROM " + table + " WHERE id = ?")) {
                ps.setLong(1, id);
                ps.executeUpdate();
            }
            done(new Change('D', id, 0, null));
        }

        private void done(Change change) {
            written++;
            if (recordForGhost) {
                backlog.add(change);
            }
        }
    }
}
