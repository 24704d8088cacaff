/**
 * The validated configuration of a source, shared by the DataStream builder and the SQL factory,
 * and the table selection.
 *
 * <p>Uses: the public API, {@code connect}, {@code convert}, {@code error}, {@code proxy}, {@code
 * schema}, {@code snapshot.read}.
 */
package io.capstan.flink.mysql.source;
