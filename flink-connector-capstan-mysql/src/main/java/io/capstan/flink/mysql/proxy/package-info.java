/**
 * The two interfaces behind which MySQL lives (JDBC and the binlog stream), so the source is tested
 * without a server, and how a primary that trails its replica is asked ({@link PrimaryCatchUp}).
 *
 * <p>Uses: {@code binlog}, {@code event}, {@code gtid}, {@code preflight}, {@code schema}, {@code
 * snapshot.key}, {@code snapshot.plan}, {@code snapshot.read}.
 */
package io.capstan.flink.mysql.proxy;
