package io.capstan.flink.mysql.table;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;

/**
 * Translates a {@code mysql-cdc} binlog file/position start offset into the GTID set it denotes on
 * the server: the file's Previous-GTIDs plus the transactions written to the file before the
 * position. Refuses ({@link org.apache.flink.table.api.ValidationException}) when that set cannot
 * be known exactly.
 */
interface BinlogPositionTranslator {

    /** The GTID set, in MySQL's text form, of the transactions before {@code file}:{@code pos}. */
    String gtidSetBefore(MySqlConnectionConfig connection, String file, long pos);
}
