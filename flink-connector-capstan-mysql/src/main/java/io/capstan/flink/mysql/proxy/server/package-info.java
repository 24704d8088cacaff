/**
 * The implementations of the proxy interfaces over JDBC and the binlog streamer.
 *
 * <p>Uses: the public API, {@code binlog}, {@code connect}, {@code convert}, {@code error}, {@code
 * event}, {@code gtid}, {@code preflight}, {@code proxy}, {@code schema}, {@code schema.read},
 * {@code snapshot.jdbc}, {@code snapshot.key}, {@code snapshot.plan}, {@code snapshot.read}, {@code
 * source}.
 */
package io.capstan.flink.mysql.proxy.server;
