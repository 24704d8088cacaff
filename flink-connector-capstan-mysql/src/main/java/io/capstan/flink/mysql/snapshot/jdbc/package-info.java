/**
 * The JDBC queries of chunk planning: key boundaries, key values and the server's sort weights of
 * string keys.
 *
 * <p>Uses: {@code connect}, {@code error}, {@code schema}, {@code snapshot.key}, {@code
 * snapshot.plan}.
 */
package io.capstan.flink.mysql.snapshot.jdbc;
