/**
 * Reading one chunk at its exact position: the brief table lock that captures the GTID set, the
 * read view, the range query and the checks that the schema did not drift.
 *
 * <p>Uses: the public API, {@code binlog}, {@code connect}, {@code convert}, {@code error}, {@code
 * gtid}, {@code schema}, {@code schema.read}, {@code snapshot.jdbc}, {@code snapshot.key}, {@code
 * snapshot.plan}.
 */
package io.capstan.flink.mysql.snapshot.read;
