package io.capstan.flink.mysql.snapshot.ddl;

import io.capstan.flink.mysql.snapshot.ddl.SqlTokenizer.Token;

import org.apache.flink.annotation.Internal;

import java.util.List;
import java.util.Locale;

/**
 * A position in a statement's tokens, for the small recursive-descent readers of statement heads
 * ({@link SnapshotDdlGuard}'s DDL reader, the binlog's statement-logged DML reader). Running past
 * the end, or a token of the wrong kind, throws {@link IndexOutOfBoundsException}: the readers turn
 * it into "not understood".
 */
@Internal
public abstract class TokenCursor {

    protected final List<Token> tokens;
    protected int pos;

    protected TokenCursor(List<Token> tokens) {
        this.tokens = tokens;
    }

    protected Token next() {
        return tokens.get(pos++);
    }

    protected String identifier() {
        Token t = next();
        if (!t.isIdentifier()) {
            throw new IndexOutOfBoundsException("identifier expected");
        }
        return t.text;
    }

    protected boolean peekWord(String w) {
        return peekWordAt(pos, w);
    }

    protected boolean peekWordAt(int i, String w) {
        return i < tokens.size() && tokens.get(i).isWord(w);
    }

    protected boolean peekSymbol(char c) {
        return peekSymbolAt(pos, c);
    }

    protected boolean peekSymbolAt(int i, char c) {
        return i < tokens.size() && tokens.get(i).isSymbol(c);
    }

    /** Skips one of {@code ws} if it is next. */
    protected boolean skipWord(String... ws) {
        for (String w : ws) {
            if (peekWord(w)) {
                pos++;
                return true;
            }
        }
        return false;
    }

    /** Skips any run of {@code ws}, in any order. */
    protected void skipWords(String... ws) {
        while (skipWord(ws)) {
            // next
        }
    }

    protected void expectWord(String... ws) {
        if (!skipWord(ws)) {
            throw new IndexOutOfBoundsException("keyword expected");
        }
    }

    protected boolean skipSymbol(char c) {
        if (peekSymbol(c)) {
            pos++;
            return true;
        }
        return false;
    }

    protected void expectSymbol(char c) {
        if (!skipSymbol(c)) {
            throw new IndexOutOfBoundsException("symbol expected");
        }
    }

    /** A word token's text in upper case, "" for any other token. */
    protected static String upperWord(Token t) {
        return t.type == SqlTokenizer.Type.WORD ? upper(t.text) : "";
    }

    protected static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }

    /**
     * The first word after leading whitespace and comments ({@code /* *}{@code /}, {@code #},
     * {@code -- }), upper case, "" if none: how a statement the tokenizer refuses is still told.
     */
    public static String leadingWord(String sql) {
        String s = sql.stripLeading();
        while (true) {
            if (s.startsWith("/*") && !s.startsWith("/*!")) {
                int end = s.indexOf("*/");
                if (end < 0) {
                    return "";
                }
                s = s.substring(end + 2).stripLeading();
            } else if (s.startsWith("#") || s.startsWith("-- ") || s.startsWith("--\t")) {
                int end = s.indexOf('\n');
                if (end < 0) {
                    return "";
                }
                s = s.substring(end + 1).stripLeading();
            } else {
                break;
            }
        }
        int n = 0;
        while (n < s.length() && Character.isLetter(s.charAt(n))) {
            n++;
        }
        return upper(s.substring(0, n));
    }
}
