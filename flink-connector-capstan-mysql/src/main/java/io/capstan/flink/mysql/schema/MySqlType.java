package io.capstan.flink.mysql.schema;

import org.apache.flink.annotation.Internal;

import java.util.Locale;

/**
 * The MySQL column types capstan-mysql decodes, as {@code information_schema.COLUMNS.DATA_TYPE}
 * names them. Both schema readers (JDBC and binlog table map) produce these same values for the
 * same column, so schemas from the two paths compare equal.
 *
 * <p>BOOLEAN is not a type of its own: MySQL stores it as TINYINT(1), and the binlog carries no
 * display width, so it is {@link #TINYINT} on both paths.
 */
@Internal
public enum MySqlType {
    TINYINT,
    SMALLINT,
    MEDIUMINT,
    INT,
    BIGINT,
    DECIMAL,
    FLOAT,
    DOUBLE,
    BIT,
    CHAR,
    VARCHAR,
    TINYTEXT,
    TEXT,
    MEDIUMTEXT,
    LONGTEXT,
    BINARY,
    VARBINARY,
    TINYBLOB,
    BLOB,
    MEDIUMBLOB,
    LONGBLOB,
    ENUM,
    SET,
    JSON,
    DATE,
    TIME,
    DATETIME,
    TIMESTAMP,
    YEAR,
    GEOMETRY,
    POINT,
    LINESTRING,
    POLYGON,
    MULTIPOINT,
    MULTILINESTRING,
    MULTIPOLYGON,
    GEOMETRYCOLLECTION;

    /** The type for an {@code information_schema.COLUMNS.DATA_TYPE} value, or null if unknown. */
    public static MySqlType fromDataType(String dataType) {
        String t = dataType.trim().toUpperCase(Locale.ROOT);
        switch (t) {
            case "INTEGER":
                return INT;
            case "GEOMCOLLECTION":
                return GEOMETRYCOLLECTION;
            case "NUMERIC":
                return DECIMAL;
            case "REAL":
                return DOUBLE;
            default:
                for (MySqlType type : values()) {
                    if (type.name().equals(t)) {
                        return type;
                    }
                }
                return null;
        }
    }

    /** Whether values are character data decoded with a character set (unless it is binary). */
    public boolean isCharacter() {
        switch (this) {
            case CHAR:
            case VARCHAR:
            case TINYTEXT:
            case TEXT:
            case MEDIUMTEXT:
            case LONGTEXT:
                return true;
            default:
                return false;
        }
    }

    /** Whether values are raw bytes (binary strings and BLOBs). */
    public boolean isBinaryString() {
        switch (this) {
            case BINARY:
            case VARBINARY:
            case TINYBLOB:
            case BLOB:
            case MEDIUMBLOB:
            case LONGBLOB:
                return true;
            default:
                return false;
        }
    }

    /** Whether this is one of the spatial types. */
    public boolean isSpatial() {
        switch (this) {
            case GEOMETRY:
            case POINT:
            case LINESTRING:
            case POLYGON:
            case MULTIPOINT:
            case MULTILINESTRING:
            case MULTIPOLYGON:
            case GEOMETRYCOLLECTION:
                return true;
            default:
                return false;
        }
    }

    /** Whether this is an integer type (TINYINT..BIGINT). */
    public boolean isInteger() {
        switch (this) {
            case TINYINT:
            case SMALLINT:
            case MEDIUMINT:
            case INT:
            case BIGINT:
                return true;
            default:
                return false;
        }
    }

    /** Whether the column has fractional seconds (TIME, DATETIME, TIMESTAMP). */
    public boolean hasFractionalSeconds() {
        return this == TIME || this == DATETIME || this == TIMESTAMP;
    }
}
