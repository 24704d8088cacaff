package io.capstan.flink.mysql.convert;

import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;

/** JSON → StringData with the text MySQL prints (and JDBC returns) for the value. */
final class JsonConverter extends ColumnConverter {

    @Override
    Object fromBinlog(Object raw) {
        try {
            return StringData.fromString(MySqlJsonText.print((byte[]) raw));
        } catch (IOException e) {
            // The library's messages describe structure, not values; still, keep only the type.
            throw new UncheckedIOException(new IOException("malformed binary JSON"));
        }
    }

    @Override
    Object fromJdbc(ResultSet rs, int i) throws SQLException {
        String s = rs.getString(i);
        return s == null ? null : StringData.fromString(s);
    }
}
