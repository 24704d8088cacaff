package io.capstan.flink.mysql.bench.endtoend;

import io.capstan.flink.mysql.schema.TableId;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The representative table every phase reads, and its generated rows: a BIGINT key and one column
 * of each common family (INT, VARCHAR(64), DECIMAL(12,2), DATETIME(3), TIMESTAMP(3), TINYINT,
 * DOUBLE, VARCHAR(255), JSON), about 400 bytes a row. Values are a pure function of the key and a
 * version, so a run is reproducible.
 *
 * <p>The UUID-keyed variant holds the same rows under a {@code CHAR(36)} key in the server's
 * default collation ({@code utf8mb4_0900_ai_ci}): row {@code n}'s key is a random-looking version-4
 * UUID derived from {@code n}, so key order is unrelated to insertion order, as with UUIDs users
 * generate.
 */
final class BenchTable {

    static final String MAIN = "orders";
    static final String LATENCY_PROBE = "latency_probe";
    static final String BIG_TRANSACTION = "big_transaction";
    static final String UUID_KEYED = "orders_uuid";
    static final int COLUMNS = 10;
    static final String COLUMN_LIST =
            "id, qty, customer, amount, created_at, updated_at, status, score, note, attrs";

    private static final String[] WORDS = {
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
        "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    };

    private final String database;
    private final String name;
    private final boolean jsonNull;
    private final boolean uuidKey;

    /**
     * {@code jsonNull}: the JSON column is left NULL (an experiment that takes JSON conversion
     * out).
     */
    BenchTable(String database, String name, boolean jsonNull) {
        this(database, name, jsonNull, false);
    }

    /** {@code uuidKey}: the key is a CHAR(36) UUID in utf8mb4_0900_ai_ci instead of a BIGINT. */
    BenchTable(String database, String name, boolean jsonNull, boolean uuidKey) {
        this.database = database;
        this.name = name;
        this.jsonNull = jsonNull;
        this.uuidKey = uuidKey;
    }

    boolean uuidKey() {
        return uuidKey;
    }

    /** Row {@code n}'s key as an SQL literal. */
    String key(long n) {
        return uuidKey ? "'" + uuid(n) + "'" : Long.toString(n);
    }

    /** A WHERE condition matching the rows {@code first..last} (by row number, not key order). */
    String rowsBetween(long first, long last) {
        if (!uuidKey) {
            return "id BETWEEN " + first + " AND " + last;
        }
        StringBuilder in = new StringBuilder("id IN (");
        for (long n = first; n <= last; n++) {
            in.append(n > first ? "," : "").append(key(n));
        }
        return in.append(')').toString();
    }

    /**
     * A version-4 UUID that is a pure function of {@code n}: the first draw of a {@link
     * SplittableRandom} is a bijection of its seed, so distinct rows get distinct keys.
     */
    static String uuid(long n) {
        SplittableRandom r = new SplittableRandom(n);
        long msb = (r.nextLong() & ~0xF000L) | 0x4000L;
        long lsb = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }

    TableId id() {
        return TableId.of(database, name);
    }

    String qualified() {
        return "`" + database + "`.`" + name + "`";
    }

    String ddl() {
        return "CREATE TABLE "
                + qualified()
                + " ("
                + (uuidKey
                        ? " id CHAR(36) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci NOT NULL"
                                + " PRIMARY KEY,"
                        : " id BIGINT NOT NULL PRIMARY KEY,")
                + " qty INT NOT NULL,"
                + " customer VARCHAR(64) NOT NULL,"
                + " amount DECIMAL(12,2) NOT NULL,"
                + " created_at DATETIME(3) NOT NULL,"
                + " updated_at TIMESTAMP(3) NOT NULL,"
                + " status TINYINT NOT NULL,"
                + " score DOUBLE NOT NULL,"
                + " note VARCHAR(255) NULL,"
                + " attrs JSON NULL"
                + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    /** The SELECT both scans run: every column, in table order. */
    String selectAll() {
        return "SELECT " + COLUMN_LIST + " FROM " + qualified();
    }

    /** Appends {@code (v1, ..., v10)} for key {@code id} to a multi-row INSERT. */
    void appendRow(StringBuilder sql, long id) {
        SplittableRandom r = new SplittableRandom(id * 0x9E3779B97F4A7C15L);
        long millis = 1_600_000_000_000L + r.nextLong(100_000_000_000L);
        sql.append('(')
                .append(key(id))
                .append(',')
                .append(r.nextInt(1, 1000))
                .append(",'customer-")
                .append(Long.toHexString(r.nextLong()))
                .append('\'')
                .append(',')
                .append(r.nextInt(0, 99_999_999))
                .append('.')
                .append(r.nextInt(10, 100))
                .append(",'")
                .append(datetime(millis))
                .append('\'')
                .append(",'")
                .append(datetime(millis + r.nextInt(0, 86_400_000)))
                .append('\'')
                .append(',')
                .append(r.nextInt(-128, 128))
                .append(',')
                .append(r.nextDouble() * 1e6)
                .append(",'");
        int words = r.nextInt(8, 30);
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                sql.append(' ');
            }
            sql.append(WORDS[r.nextInt(WORDS.length)]);
        }
        if (jsonNull) {
            sql.append("',NULL)");
            return;
        }
        sql.append("','{\"sku\": \"S-")
                .append(r.nextInt(100_000))
                .append("\", \"tags\": [\"")
                .append(WORDS[r.nextInt(WORDS.length)])
                .append("\", \"")
                .append(WORDS[r.nextInt(WORDS.length)])
                .append("\"], \"weight\": ")
                .append(r.nextInt(1, 50_000) / 100.0)
                .append(", \"gift\": ")
                .append(r.nextBoolean())
                .append("}')");
    }

    private static String datetime(long epochMillis) {
        java.time.LocalDateTime t =
                java.time.LocalDateTime.ofEpochSecond(
                        Math.floorDiv(epochMillis, 1000),
                        (int) Math.floorMod(epochMillis, 1000) * 1_000_000,
                        java.time.ZoneOffset.UTC);
        return String.format(
                Locale.ROOT,
                "%04d-%02d-%02d %02d:%02d:%02d.%03d",
                t.getYear(),
                t.getMonthValue(),
                t.getDayOfMonth(),
                t.getHour(),
                t.getMinute(),
                t.getSecond(),
                t.getNano() / 1_000_000);
    }
}
