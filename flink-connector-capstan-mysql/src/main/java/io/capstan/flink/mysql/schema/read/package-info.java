/**
 * The readers of table schemas: from the server's catalogue over JDBC, and from the binlog's table
 * map metadata as the binlog library decodes it.
 *
 * <p>Uses: {@code error}, {@code schema}.
 */
package io.capstan.flink.mysql.schema.read;
