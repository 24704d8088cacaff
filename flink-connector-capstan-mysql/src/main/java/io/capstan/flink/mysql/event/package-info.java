/**
 * The change model the binlog stream yields: row changes, transaction ends, tables entering
 * capture, the position to start or resume from and how a split's stream began. Pure values, free
 * of I/O.
 *
 * <p>Uses: {@code gtid}, {@code schema}.
 */
package io.capstan.flink.mysql.event;
