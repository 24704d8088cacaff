/**
 * The two interfaces behind which MySQL lives (JDBC and the binlog stream), so the source is tested
 * without a server.
 *
 * <p>Uses: {@code binlog}, {@code event}, {@code gtid}, {@code preflight}, {@code schema}, {@code
 * snapshot.key}, {@code snapshot.plan}, {@code snapshot.read}.
 */
package io.capstan.flink.mysql.proxy;
