package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.CapstanMySqlOptions;
import io.capstan.flink.mysql.error.CapstanHaltException;
import io.capstan.flink.mysql.error.HaltReason;
import io.capstan.flink.mysql.gtid.BinlogPositionAxis;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer;
import io.capstan.flink.mysql.snapshot.ddl.TokenCursor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tells the table swap that ends an online schema change by gh-ost or pt-online-schema-change from
 * a removal of the captured table (docs/adr/0011). The swap is one statement renaming the captured
 * table away and the tool's copy into its name, with the names the tools derive from it:
 *
 * <ul>
 *   <li>gh-ost: {@code RENAME TABLE t TO _t_del, _t_gho TO t}
 *   <li>pt-osc: {@code RENAME TABLE t TO _t_old, _t_new TO t}
 * </ul>
 *
 * (each name optionally qualified, all four in the captured table's database). Followed (option
 * {@code scan.parse.online.schema.changes.enabled}), the swap is a schema change of the captured
 * table: its later rows, under the same name, carry their new columns in the binlog's table maps.
 * Not followed, the swap halts {@code captured_table_removed} with the option as the remedy. Any
 * other shape (another name, a third rename, two statements) is none of this class's business: the
 * caller halts it as a removal. Pure; single-threaded.
 */
final class OnlineSchemaChangeCutOver {

    private static final Logger LOG = LoggerFactory.getLogger(OnlineSchemaChangeCutOver.class);

    /** A tool's names: {@code _t<away>} takes the old table, {@code _t<copy>} is renamed in. */
    private enum Tool {
        GH_OST("gh-ost", "_del", "_gho"),
        PT_OSC("pt-online-schema-change", "_old", "_new");

        final String label;
        final String away;
        final String copy;

        Tool(String label, String away, String copy) {
            this.label = label;
            this.away = away;
            this.copy = copy;
        }
    }

    private boolean follow;

    /** From now on a swap is followed rather than halted. */
    void follow() {
        follow = true;
    }

    /**
     * Whether {@code sql} is a tool's swap of the captured table {@code table}, to be followed.
     *
     * @return false when it is not a swap of {@code table} (the caller halts it as a removal)
     * @throws CapstanHaltException {@code captured_table_removed} when it is a swap but following
     *     swaps is off, naming the option
     */
    boolean isCutOverOf(TableId table, String sessionDb, String sql, Gtid gtid) {
        Optional<Tool> tool = swapOf(table, sessionDb, sql);
        if (tool.isEmpty()) {
            return false;
        }
        if (!follow) {
            throw new CapstanHaltException(
                    HaltReason.CAPTURED_TABLE_REMOVED,
                    "captured table "
                            + table
                            + " was swapped for its copy by an online schema change ("
                            + tool.get().label
                            + " cut-over) in transaction "
                            + BinlogPositionAxis.readable(gtid)
                            + ", and option "
                            + CapstanMySqlOptions.SCAN_PARSE_ONLINE_SCHEMA_CHANGES_ENABLED.key()
                            + " is false. Remedy: set it to 'true' (DataStream:"
                            + " parseOnLineSchemaChanges(true)) to follow such swaps as schema"
                            + " changes, and restart the job without state (a new snapshot).");
        }
        LOG.info(
                "Captured table {} was swapped for its copy by a {} cut-over in transaction {};"
                        + " its rows continue under the same name with the copy's columns",
                table,
                tool.get().label,
                BinlogPositionAxis.readable(gtid));
        return true;
    }

    /** The tool whose swap of {@code table} {@code sql} is, if it is one. */
    static Optional<Tool> swapOf(TableId table, String sessionDb, String sql) {
        List<String[]> renames;
        try {
            renames = RenameReader.renames(SqlTokenizer.tokenize(sql));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
        if (renames.size() != 2) {
            return Optional.empty();
        }
        String[] away = renames.get(0); // {db, table, db, table}: from, to
        String[] in = renames.get(1);
        String db = sessionDb == null ? "" : sessionDb;
        for (String[] r : renames) {
            for (int i = 0; i < 4; i += 2) {
                String d = r[i] != null ? r[i] : db;
                // the captured table's database, as the catalogue spells it (a doubt: no swap)
                if (!d.equals(table.database())) {
                    return Optional.empty();
                }
            }
        }
        String t = away[1];
        if (!t.equals(table.table()) || !in[3].equals(t)) {
            return Optional.empty();
        }
        for (Tool tool : Tool.values()) {
            if (away[3].equals("_" + t + tool.away) && in[1].equals("_" + t + tool.copy)) {
                return Optional.of(tool);
            }
        }
        return Optional.empty();
    }

    /** Reads {@code RENAME TABLE a TO b[, c TO d]...}; anything else reads as no renames. */
    private static final class RenameReader extends TokenCursor {

        private RenameReader(List<SqlTokenizer.Token> tokens) {
            super(tokens);
        }

        static List<String[]> renames(List<SqlTokenizer.Token> tokens) {
            RenameReader r = new RenameReader(tokens);
            List<String[]> out = new ArrayList<>();
            if (tokens.isEmpty() || !r.skipWord("RENAME") || !r.skipWord("TABLE", "TABLES")) {
                return out;
            }
            do {
                String[] from = r.name();
                r.expectWord("TO");
                String[] to = r.name();
                out.add(new String[] {from[0], from[1], to[0], to[1]});
            } while (r.skipSymbol(','));
            r.skipSymbol(';');
            return r.pos == tokens.size() ? out : List.of();
        }

        private String[] name() {
            String first = identifier();
            if (pos < tokens.size() && tokens.get(pos).isSymbol('.')) {
                pos++;
                return new String[] {first, identifier()};
            }
            return new String[] {null, first};
        }
    }
}
