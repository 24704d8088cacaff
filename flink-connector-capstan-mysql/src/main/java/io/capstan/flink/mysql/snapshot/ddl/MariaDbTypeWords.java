package io.capstan.flink.mysql.snapshot.ddl;

import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer.Token;

import java.util.List;
import java.util.Set;

/**
 * Tells a column definition of MariaDB's own types {@code UUID}, {@code INET4} and {@code INET6} in
 * a CREATE or ALTER TABLE's tokens. The binlog writes such a column as plain {@code BINARY(n)}, so
 * the stream can learn it only from the statement. A column may itself be called {@code uuid}: the
 * word is a type only after a column's name (a word or a quoted name other than the words that lead
 * a column's name) or after {@code AS} (a CAST), and not when a type or {@code (} (a function call)
 * or {@code .} follows. A doubt counts as a type: a needless halt is better than bytes for a UUID.
 * Pure.
 */
final class MariaDbTypeWords {

    private MariaDbTypeWords() {}

    /**
     * MariaDB's types that its binlog writes as plain binary (UUID since 10.7, INET4 since 10.10,
     * INET6 since 10.5).
     */
    static final Set<String> OWN_TYPES = Set.of("UUID", "INET4", "INET6");

    /** Words after which a column's name, not its type, stands. */
    private static final Set<String> BEFORE_A_NAME =
            Set.of(
                    "ADD",
                    "COLUMN",
                    "CHANGE",
                    "MODIFY",
                    "DROP",
                    "ALTER",
                    "RENAME",
                    "TO",
                    "AFTER",
                    "FIRST",
                    "BY",
                    "EXISTS",
                    "TABLE",
                    "KEY",
                    "INDEX",
                    "ON",
                    "USING",
                    "SET",
                    "LIKE",
                    "SELECT",
                    "WHERE",
                    "AND",
                    "OR",
                    "NOT",
                    "DEFAULT",
                    "CHECK",
                    "CONSTRAINT",
                    "REFERENCES",
                    "FOREIGN",
                    "PRIMARY",
                    "UNIQUE",
                    "FULLTEXT",
                    "SPATIAL",
                    "PARTITION",
                    "COMMENT",
                    "COLLATE",
                    "CHARSET",
                    "ENGINE");

    /**
     * Data type words: a word followed by one of them is a column's name. Not a closed list of
     * MariaDB's types; a type missing here only makes a column named {@code uuid} halt.
     */
    private static final Set<String> DATA_TYPES =
            Set.of(
                    "TINYINT",
                    "SMALLINT",
                    "MEDIUMINT",
                    "INT",
                    "INTEGER",
                    "BIGINT",
                    "DECIMAL",
                    "DEC",
                    "NUMERIC",
                    "FIXED",
                    "FLOAT",
                    "DOUBLE",
                    "REAL",
                    "BIT",
                    "BOOL",
                    "BOOLEAN",
                    "SERIAL",
                    "DATE",
                    "TIME",
                    "DATETIME",
                    "TIMESTAMP",
                    "YEAR",
                    "CHAR",
                    "CHARACTER",
                    "NCHAR",
                    "NATIONAL",
                    "VARCHAR",
                    "NVARCHAR",
                    "BINARY",
                    "VARBINARY",
                    "TINYBLOB",
                    "BLOB",
                    "MEDIUMBLOB",
                    "LONGBLOB",
                    "TINYTEXT",
                    "TEXT",
                    "MEDIUMTEXT",
                    "LONGTEXT",
                    "LONG",
                    "ENUM",
                    "JSON",
                    "GEOMETRY",
                    "POINT",
                    "LINESTRING",
                    "POLYGON",
                    "MULTIPOINT",
                    "MULTILINESTRING",
                    "MULTIPOLYGON",
                    "GEOMETRYCOLLECTION",
                    "UUID",
                    "INET4",
                    "INET6");

    /** Whether {@code tokens[i]} is one of {@link #OWN_TYPES} as a column's data type. */
    static boolean isOwnTypeAt(List<Token> tokens, int i) {
        Token t = tokens.get(i);
        if (t.type != SqlTokenizer.Type.WORD || !OWN_TYPES.contains(upper(t))) {
            return false;
        }
        if (i == 0 || !isNameLike(tokens.get(i - 1))) {
            return false;
        }
        if (i + 1 == tokens.size()) {
            return true;
        }
        Token next = tokens.get(i + 1);
        boolean nameBeforeType =
                next.type == SqlTokenizer.Type.WORD && DATA_TYPES.contains(upper(next));
        return !(nameBeforeType || next.isSymbol('(') || next.isSymbol('.'));
    }

    private static boolean isNameLike(Token before) {
        return before.type == SqlTokenizer.Type.QUOTED
                || (before.type == SqlTokenizer.Type.WORD
                        && !BEFORE_A_NAME.contains(upper(before)));
    }

    private static String upper(Token t) {
        return TokenCursor.upper(t.text);
    }
}
