package io.capstan.flink.mysql.convert;

import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;

/** JSON → StringData with the text MySQL prints (and JDBC returns) for the value. */
final class JsonConverter extends ColumnConverter {
    private static final long serialVersionUID = 1L;

    // Reused across rows: converters are used by one thread (the binlog reader's schema cache).
    private transient MySqlJsonText text;

    @Override
    Object fromBinlog(Object raw) {
        try {
            if (text == null) {
                text = new MySqlJsonText();
            }
            return StringData.fromBytes(text.printUtf8((byte[]) raw));
        } catch (IOException e) {
            // The library's messages describe structure, not values; still, keep only the type.
            throw new UncheckedIOException(new IOException("malformed binary JSON"));
        }
    }

    @Override
    Object fromJdbc(ResultSet rs, int i) throws SQLException {
        // JSON text arrives as utf8mb4, StringData's own encoding: wrapped, not decoded.
        byte[] b = rs.getBytes(i);
        return b == null ? null : StringData.fromBytes(b);
    }
}
