/**
 * MySQL values to Flink values: each column's converter, resolved once per table, giving the same
 * value from a binlog cell and from a JDBC result set.
 *
 * <p>Uses: {@code error}, {@code schema}, {@code schema.read}.
 */
package io.capstan.flink.mysql.convert;
