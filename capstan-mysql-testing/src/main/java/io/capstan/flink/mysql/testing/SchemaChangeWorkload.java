package io.capstan.flink.mysql.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Schema changes of captured tables while writers keep writing: one table per scenario, each with
 * its own writer thread ({@link TableWriter}) running before, during and after its change. Every
 * table starts as {@code (id BIGINT PRIMARY KEY, v INT, name VARCHAR(20), extra INT DEFAULT 5)}; a
 * job declares {@code id, v, name}, the columns every scenario keeps ({@link #contents}). The
 * online schema-change tools are played by their own statements ({@link OnlineSchemaChangeTools}).
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
    private final List<TableWriter> writers = new ArrayList<>();

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
            TableWriter w = new TableWriter(db, TABLES.get(i), KEY_RANGE * (i + 1), INITIAL_ROWS);
            w.fill();
            writers.add(w);
        }
        for (TableWriter w : writers) {
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
        OnlineSchemaChangeTools.ghOst(db, writer("sc_ghost"), minId("sc_ghost"));
        OnlineSchemaChangeTools.ptOsc(db, "sc_ptosc", minId("sc_ptosc"));
        Thread.sleep(500);
    }

    /** Stops the writers (each finishes its statement) and fails if one failed. */
    public void stopWriters() throws Exception {
        for (TableWriter w : writers) {
            w.stop = true;
        }
        for (TableWriter w : writers) {
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

    private TableWriter writer(String table) {
        return writers.stream().filter(w -> w.table.equals(table)).findFirst().orElseThrow();
    }

    private static long minId(String table) {
        return KEY_RANGE * (TABLES.indexOf(table) + 1);
    }
}
