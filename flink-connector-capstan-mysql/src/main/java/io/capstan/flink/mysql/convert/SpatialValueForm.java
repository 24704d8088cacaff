package io.capstan.flink.mysql.convert;

import org.apache.flink.annotation.Internal;

/**
 * The bytes a spatial column's value is delivered as, on both paths alike. The SQL connector asks
 * for {@link #MYSQL_INTERNAL} so that a column declared {@code STRING} can print the stored SRID as
 * mysql-cdc does; everything else gets {@link #WKB}.
 */
@Internal
public enum SpatialValueForm {
    /** Standard WKB: MySQL's SRID prefix dropped (docs/types.md). */
    WKB,
    /** MySQL's own value: the SRID as 4 little-endian bytes, then standard WKB. */
    MYSQL_INTERNAL
}
